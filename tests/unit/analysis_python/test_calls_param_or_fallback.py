"""A client whose base URL is ``base_url or <configured default>`` with ``base_url=None``: built
without the argument, its calls go to the configured default; an argument passed, or a parameter
without a None default, keeps what the caller says."""

from pyana_support import calls, link_sources

GATEWAY = '''
import os

import requests


class LedgerGateway:
    def __init__(self, base_url: str | None = None):
        self.base_url = base_url or os.environ.get("LEDGER_URL", "http://ledger:9000")
        self.session = requests.Session()

    def post_entry(self, entry: dict) -> dict:
        return self.session.post(f"{self.base_url}/entries", json=entry).json()


gateway = LedgerGateway()
'''

SETTINGS_FALLBACK = '''
import httpx
from pydantic_settings import BaseSettings


class Conf(BaseSettings):
    quotes_url: str = "http://quotes:8080"


conf = Conf()


class QuotesClient:
    def __init__(self, url=None, timeout=5.0):
        self._http = httpx.Client(base_url=url or conf.quotes_url, timeout=timeout)

    def latest(self):
        return self._http.get("/quotes/latest").json()
'''

FUNCTION_FALLBACK = '''
import requests

DEFAULT_HOST = "http://archive:7000"


def fetch(doc_id, host=None):
    return requests.get(f"{host or DEFAULT_HOST}/docs/{doc_id}")
'''

EXPLICIT = '''
import requests


class Mailer:
    def __init__(self, endpoint=None):
        self.endpoint = endpoint or "http://mailer-default:25"

    def send(self):
        return requests.post(self.endpoint + "/send")


mailer = Mailer("http://relay:8025")
'''

CALLED = '''
import os

import requests


class StockClient:
    def __init__(self, root=None):
        self.root = root or os.getenv("STOCK_ROOT", "http://stock:8000")

    def reserve(self, sku):
        return requests.post(f"{self.root}/reservations/{sku}")


default_client = StockClient()
pinned_client = StockClient(root="http://stock-eu:8000")


def reserve_here(sku):
    return default_client.reserve(sku)


def reserve_there(sku):
    return pinned_client.reserve(sku)
'''

NO_NONE_DEFAULT = '''
import requests


class Pinger:
    def __init__(self, target):
        self.target = target or "http://fallback:1"

    def ping(self):
        return requests.get(self.target + "/ping")
'''


def _urls(facts):
    return sorted((kind, method, url) for _f, _l, kind, _c, method, url, _h, _g in calls(facts))


def test_an_unset_base_url_falls_back_to_the_environment_default():
    assert _urls(link_sources({"svc/gateway.py": GATEWAY})) == [
        ("http", "POST", "${LEDGER_URL:http://ledger:9000}/entries")
    ]


def test_an_unset_url_falls_back_to_the_settings_default():
    assert _urls(link_sources({"svc/quotes.py": SETTINGS_FALLBACK})) == [
        ("http", "GET", "${QUOTES_URL:http://quotes:8080}/quotes/latest")
    ]


def test_a_function_parameter_left_none_falls_back_to_the_constant():
    assert _urls(link_sources({"svc/archive.py": FUNCTION_FALLBACK})) == [
        ("http", "GET", "http://archive:7000/docs/<doc_id>")
    ]


def test_an_argument_passed_to_the_constructor_wins_over_the_fallback():
    assert _urls(link_sources({"svc/mailer.py": EXPLICIT})) == [("http", "POST", "http://relay:8025/send")]


def test_call_sites_bind_the_argument_or_fall_back_when_none_is_passed():
    assert _urls(link_sources({"svc/stock.py": CALLED})) == [
        ("http", "POST", "${STOCK_ROOT:http://stock:8000}/reservations/<sku>"),
        ("http", "POST", "http://stock-eu:8000/reservations/<sku>"),
    ]


def test_a_parameter_without_a_none_default_is_not_replaced_by_the_fallback():
    urls = _urls(link_sources({"svc/pinger.py": NO_NONE_DEFAULT}))
    assert all("fallback" not in (url or "") for _k, _m, url in urls)
