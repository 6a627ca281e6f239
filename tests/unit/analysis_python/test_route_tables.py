"""A table of upstreams looked up with a runtime key (a gateway's ``ROUTES[name]["host"]``, a
``@property`` of a settings class returning the table, a loop over base URLs): the call site
reaches every URL of the table, one call each; a lookup with a known key reaches only its entry."""

from pyana_support import calls, link_sources

PROPERTY_TABLE = '''
import httpx
from pydantic_settings import BaseSettings


class GatewaySettings(BaseSettings):
    BILLING_PORT: int = 8101
    CATALOG_PORT: int = 8102

    @property
    def BACKENDS(self):
        return {
            "billing": {"url": f"http://billing-api:{self.BILLING_PORT}", "public": ["/ping"]},
            "catalog": {"url": f"http://catalog-api:{self.CATALOG_PORT}", "public": []},
        }


conf = GatewaySettings()


async def relay(name: str, rest: str, client: httpx.AsyncClient):
    backend = conf.BACKENDS[name]
    target = f"{backend['url']}/{rest}"
    return await client.request("POST", target)
'''

MODULE_TABLE = '''
import os
import requests

UPSTREAMS = {
    "people": os.getenv("PEOPLE_URL", "http://people:5000"),
    "places": "http://places:5001",
}


def fetch(kind, ident):
    return requests.get(UPSTREAMS[kind] + "/items/" + ident)


def fetch_people(ident):
    return requests.get(UPSTREAMS["people"] + "/items/" + ident)
'''

LOOP = '''
import httpx


def ping_all():
    for base in ("http://alpha:9001", "http://beta:9002"):
        httpx.get(base + "/health")
'''


def _urls(facts):
    return sorted((c[1], c[4], c[5]) for c in calls(facts))


def test_a_property_table_looked_up_at_run_time_reaches_every_upstream():
    assert _urls(link_sources({"gw/app.py": PROPERTY_TABLE}, root="gw")) == [
        (24, "POST", "http://billing-api:${BILLING_PORT:8101}/<rest>"),
        (24, "POST", "http://catalog-api:${CATALOG_PORT:8102}/<rest>"),
    ]


def test_a_module_table_fans_out_but_a_literal_key_reaches_only_its_entry():
    assert _urls(link_sources({"svc/fetch.py": MODULE_TABLE})) == [
        (12, "GET", "${PEOPLE_URL:http://people:5000}/items/<ident>"),
        (12, "GET", "http://places:5001/items/<ident>"),
        (16, "GET", "${PEOPLE_URL:http://people:5000}/items/<ident>"),
    ]


def test_a_loop_over_base_urls_is_one_call_per_url():
    assert _urls(link_sources({"svc/ping.py": LOOP})) == [
        (7, "GET", "http://alpha:9001/health"),
        (7, "GET", "http://beta:9002/health"),
    ]


HEALTH_SWEEP = '''
import httpx

BACKENDS = {"orders": {"host": "http://orders:8001"}, "stock": {"host": "http://stock:8002"}}


async def sweep():
    async with httpx.AsyncClient() as client:
        for name, backend in BACKENDS.items():
            await client.get(f"{backend['host']}/health")
        for backend in BACKENDS.values():
            await client.get(backend["host"] + "/ready")
'''


def test_a_loop_over_a_tables_items_or_values_reaches_each_entry():
    assert _urls(link_sources({"svc/sweep.py": HEALTH_SWEEP})) == [
        (10, "GET", "http://orders:8001/health"),
        (10, "GET", "http://stock:8002/health"),
        (12, "GET", "http://orders:8001/ready"),
        (12, "GET", "http://stock:8002/ready"),
    ]
