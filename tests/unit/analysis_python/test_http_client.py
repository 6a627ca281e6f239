"""Standard-library ``http.client`` connections: the URL is the connection's host and port plus
the path given to ``request``."""

from pyana_support import calls, link_sources

STDLIB = """
import http.client
import os

STOCK_HOST = os.getenv("STOCK_HOST", "stock")


def reserve(item_id):
    conn = http.client.HTTPConnection(STOCK_HOST, 8080, timeout=5)
    conn.request("POST", "/reservations/" + item_id, body="{}")
    return conn.getresponse()
"""

# the same with ``from`` imports, keywords, TLS and a config class holding the host
STDLIB_KW = """
from http.client import HTTPSConnection


class Upstream:
    HOST = "ledger.internal"


def balance(account):
    c = HTTPSConnection(host=Upstream.HOST)
    c.request(method="GET", url=f"/accounts/{account}/balance")
    return c.getresponse().read()
"""


def test_connection_host_port_and_request_path():
    assert calls(link_sources({"svc/stock.py": STDLIB})) == [
        (
            "svc/stock.py",
            10,
            "http",
            "http.client",
            "POST",
            "http://${STOCK_HOST:stock}:8080/reservations/<item_id>",
            None,
            None,
        ),
    ]


def test_keywords_tls_and_class_constant_host():
    assert calls(link_sources({"svc/ledger.py": STDLIB_KW})) == [
        (
            "svc/ledger.py",
            11,
            "http",
            "http.client",
            "GET",
            "https://ledger.internal/accounts/<account>/balance",
            None,
            None,
        ),
    ]


def test_request_on_other_objects_is_not_an_http_call():
    code = """
class Form:
    def request(self, method, path):
        return (method, path)


Form().request("GET", "/not/a/call")
"""
    assert calls(link_sources({"svc/form.py": code})) == []
