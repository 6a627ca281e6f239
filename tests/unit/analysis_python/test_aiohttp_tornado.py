"""aiohttp and Tornado routes."""

from pyana_support import apis, link_sources

from orbitkb.analysis.python.routes_tornado import regex_path

AIO_ROUTER = """
from aiohttp import web


async def list_boats(request):
    return web.json_response([])


async def dock_boat(request):
    return web.json_response({})


class HarbourView(web.View):
    async def get(self):
        return web.json_response({})

    async def delete(self):
        return web.json_response({})


def build():
    app = web.Application()
    app.router.add_get("/boats", list_boats)
    app.router.add_route("POST", "/boats/{boat_id}/dock", dock_boat)
    app.router.add_view("/harbours/{name}", HarbourView)
    return app
"""

# the same service written with route definitions, a table and a sub-application prefix
AIO_TABLES = """
from aiohttp import web

table = web.RouteTableDef()


@table.get("/crews")
async def crews(request):
    return web.json_response([])


@table.route("*", "/crews/{crew_id}")
async def crew(request):
    return web.json_response({})


async def list_boats(request):
    return web.json_response([])


def build():
    api = web.Application()
    api.add_routes([web.get("/boats", list_boats), web.post("/boats", list_boats)])
    api.add_routes(table)
    root = web.Application()
    root.add_subapp("/v2", api)
    return root
"""


def test_aiohttp_router_methods_and_class_views():
    facts = link_sources({"svc/app.py": AIO_ROUTER})
    assert [(m, p, h) for m, p, h, _f, _l in apis(facts)] == [
        ("DELETE", "/harbours/{name}", "HarbourView.delete"),
        ("GET", "/boats", "list_boats"),
        ("GET", "/harbours/{name}", "HarbourView.get"),
        ("POST", "/boats/{boat_id}/dock", "dock_boat"),
    ]
    assert facts.framework == "aiohttp"


def test_aiohttp_route_definitions_tables_and_subapp_prefix():
    facts = link_sources({"svc/app.py": AIO_TABLES})
    assert sorted((m, p, h) for m, p, h, _f, _l in apis(facts)) == [
        ("ANY", "/v2/crews/{crew_id}", "crew"),
        ("GET", "/v2/boats", "list_boats"),
        ("GET", "/v2/crews", "crews"),
        ("POST", "/v2/boats", "list_boats"),
    ]


def test_router_like_calls_without_aiohttp_are_not_routes():
    code = """
class Registry:
    def __init__(self):
        self.router = {}


reg = Registry()
reg.router.add_get("/x", print)
"""
    assert link_sources({"svc/x.py": code}).apis == ()


TORNADO = """
import tornado.web
from tornado.web import url


class ShipHandler(tornado.web.RequestHandler):
    def get(self, ship_id):
        self.write({})

    def put(self, ship_id):
        self.write({})


class FleetHandler(tornado.web.RequestHandler):
    async def get(self):
        self.write([])


def make_app():
    return tornado.web.Application([
        (r"/fleet/?", FleetHandler),
        url(r"/ships/(?P<ship_id>[0-9]+)$", ShipHandler, name="ship"),
    ])
"""


def test_tornado_application_rules_and_handler_methods():
    facts = link_sources({"svc/server.py": TORNADO})
    assert [(m, p, h) for m, p, h, _f, _l in apis(facts)] == [
        ("GET", "/fleet", "FleetHandler.get"),
        ("GET", "/ships/{ship_id}", "ShipHandler.get"),
        ("PUT", "/ships/{ship_id}", "ShipHandler.put"),
    ]


def test_tornado_add_handlers_with_a_rule_list():
    code = TORNADO.replace(
        "def make_app():",
        "def extend(app):\n    app.add_handlers(r'.*', [(r'/docks/([^/]+)', FleetHandler)])\n\n\ndef make_app():",
    )
    paths = {p for _m, p, _h, _f, _l in apis(link_sources({"svc/server.py": code}))}
    assert "/docks/{p1}" in paths


def test_regex_path_templates():
    assert regex_path(r"^/a/(?P<id>\d+)/?$") == "/a/{id}"
    assert regex_path(r"/b/([^/]+)/c/(\w+)") == "/b/{p1}/c/{p2}"
    assert regex_path(r"/file\.json") == "/file.json"
