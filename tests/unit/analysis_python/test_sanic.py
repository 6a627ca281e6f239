"""Sanic routes read like Flask's: ``@app.get``/``@app.route(uri, methods=[...])``, blueprints with
``url_prefix`` registered by ``app.blueprint(bp)``, ``app.add_route(handler, uri, methods=...)``
and ``HTTPMethodView.as_view()``; the routes are Sanic's, not Flask's."""

from pyana_support import link_sources

APP = '''
from sanic import Blueprint, Sanic
from sanic.response import json
from sanic.views import HTTPMethodView

app = Sanic("parcels")
tracking = Blueprint("tracking", url_prefix="/tracking")


@app.get("/health")
async def health(request):
    return json({})


@app.route("/parcels", methods=["POST", "PUT"])
async def upsert(request):
    return json({})


@tracking.get("/<code:str>")
async def where(request, code):
    return json({})


async def cancel(request, code):
    return json({})


class Labels(HTTPMethodView):
    async def get(self, request):
        return json({})

    async def delete(self, request):
        return json({})


app.blueprint(tracking)
app.add_route(cancel, "/parcels/<code:str>/cancel", methods=["POST"])
app.add_route(Labels.as_view(), "/labels")
'''


def test_sanic_decorators_blueprints_and_add_route():
    facts = link_sources({"svc/server.py": APP})
    got = sorted((a.method, a.path, a.framework) for a in facts.apis)
    assert got == [
        ("DELETE", "/labels", "sanic"),
        ("GET", "/health", "sanic"),
        ("GET", "/labels", "sanic"),
        ("GET", "/tracking/<code:str>", "sanic"),
        ("POST", "/parcels", "sanic"),
        ("POST", "/parcels/<code:str>/cancel", "sanic"),
        ("PUT", "/parcels", "sanic"),
    ]
