"""An HTTP client kept in the application's state (``app.state.x = httpx.AsyncClient(base_url=...)``
in a lifespan or a startup hook) is the client a handler reads back as ``request.app.state.x``,
directly or through a ``Depends`` provider; a name written two different ways stays unknown."""

from pyana_support import calls, link_sources

LIFESPAN = '''
import os
from contextlib import asynccontextmanager

import httpx
from fastapi import FastAPI


@asynccontextmanager
async def lifespan(app: FastAPI):
    app.state.ledger = httpx.AsyncClient(base_url=os.environ.get("LEDGER_URL", "http://ledger:9000"))
    yield
    await app.state.ledger.aclose()


app = FastAPI(lifespan=lifespan)
'''

HANDLER = '''
from fastapi import APIRouter, Request

router = APIRouter()


@router.get("/balances/{acct}")
async def balance(acct: str, request: Request):
    resp = await request.app.state.ledger.get(f"/accounts/{acct}")
    return resp.json()
'''

STARTUP_AND_DEPENDS = '''
import httpx
from fastapi import Depends, FastAPI, Request

app = FastAPI()


@app.on_event("startup")
async def open_clients():
    app.state.quotes = httpx.AsyncClient(base_url="http://quotes:8080")


def quotes_client(request: Request) -> httpx.AsyncClient:
    return request.app.state.quotes


@app.get("/price/{sym}")
async def price(sym: str, client: httpx.AsyncClient = Depends(quotes_client)):
    return (await client.get(f"/quotes/{sym}")).json()
'''

CLASHING = '''
import httpx
from fastapi import FastAPI, Request

app = FastAPI()


@app.on_event("startup")
async def first():
    app.state.peer = httpx.AsyncClient(base_url="http://alpha:1")


@app.on_event("startup")
async def second():
    app.state.peer = httpx.AsyncClient(base_url="http://beta:2")


@app.get("/x")
async def x(request: Request):
    return await request.app.state.peer.get("/y")
'''

NOT_STATE = '''
import httpx
from fastapi import FastAPI, Request

app = FastAPI()


@app.on_event("startup")
async def remember():
    app.state.limit = 10


@app.get("/z")
async def z(request: Request):
    return await request.app.extra.client.get("/w")
'''


def _urls(facts):
    return sorted((kind, method, url) for _f, _l, kind, _c, method, url, _h, _g in calls(facts))


def test_a_client_set_in_the_lifespan_is_read_back_from_the_request():
    facts = link_sources({"svc/main.py": LIFESPAN, "svc/routes.py": HANDLER})
    assert _urls(facts) == [("http", "GET", "${LEDGER_URL:http://ledger:9000}/accounts/<acct>")]


def test_a_client_set_at_startup_reaches_a_handler_through_depends():
    assert _urls(link_sources({"svc/main.py": STARTUP_AND_DEPENDS})) == [
        ("http", "GET", "http://quotes:8080/quotes/<sym>")
    ]


def test_a_name_written_with_two_values_is_not_guessed():
    urls = _urls(link_sources({"svc/main.py": CLASHING}))
    assert not any("alpha" in (u or "") or "beta" in (u or "") for _k, _m, u in urls)


def test_other_attributes_of_the_app_are_not_state():
    urls = _urls(link_sources({"svc/main.py": NOT_STATE}))
    assert all("limit" not in (u or "") for _k, _m, u in urls)
