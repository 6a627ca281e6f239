"""FastAPI routers that no application includes are not served: a routes module left over (or
written for a wiring never done) adds no endpoint, once the service has an app and every
``include_router`` in it names the router it includes. When an include cannot be followed, or
the service shows no app, every router is kept."""

from pyana_support import apis, link_sources

APP = '''
from fastapi import FastAPI
from svc.routes import invoices

app = FastAPI()
app.include_router(invoices.router, prefix="/billing")


@app.get("/status")
def status():
    return {}
'''

INVOICES = '''
from fastapi import APIRouter

router = APIRouter(prefix="/invoices")


@router.get("/{number}")
def one(number: str):
    return {}
'''

LEFTOVER = '''
from fastapi import APIRouter

router = APIRouter(prefix="/refunds")


@router.post("")
def refund():
    return {}
'''

BARE_APP = '''
from fastapi import FastAPI

app = FastAPI()


@app.get("/status")
def status():
    return {}
'''

DYNAMIC_APP = '''
import importlib
from fastapi import FastAPI

app = FastAPI()
for name in ("invoices", "leftover"):
    module = importlib.import_module(f"svc.routes.{name}")
    app.include_router(module.router)
'''

APP_ELSEWHERE = '''
from fastapi import APIRouter

router = APIRouter()


@router.get("/quotes")
def quotes():
    return []
'''


def _paths(facts):
    return sorted((method, path) for method, path, *_ in apis(facts))


def test_a_router_no_app_includes_serves_nothing():
    facts = link_sources(
        {"svc/main.py": APP, "svc/routes/invoices.py": INVOICES, "svc/routes/leftover.py": LEFTOVER}
    )
    assert _paths(facts) == [("GET", "/billing/invoices/{number}"), ("GET", "/status")]


def test_an_app_with_no_include_at_all_does_not_serve_a_stray_router():
    facts = link_sources({"svc/main.py": BARE_APP, "svc/routes/leftover.py": LEFTOVER})
    assert _paths(facts) == [("GET", "/status")]


def test_routers_are_kept_when_an_include_cannot_be_followed():
    facts = link_sources(
        {"svc/main.py": DYNAMIC_APP, "svc/routes/invoices.py": INVOICES, "svc/routes/leftover.py": LEFTOVER}
    )
    assert ("POST", "/refunds") in _paths(facts)
    assert ("GET", "/invoices/{number}") in _paths(facts)


def test_routers_are_kept_when_the_service_shows_no_app():
    assert _paths(link_sources({"svc/quotes.py": APP_ELSEWHERE})) == [("GET", "/quotes")]
