"""Litestar handlers (``@get``/``@post``/``@route`` on functions and ``Controller`` methods, the
controller's ``path``, ``Router(path, route_handlers=[...])`` nested under the app) and FastStream
routers (``RabbitRouter``/``KafkaRouter``: ``@router.subscriber`` consumes, a stacked
``@router.publisher`` publishes what the handler returns)."""

from pyana_support import apis, link_sources, messages

CONTROLLERS = '''
from litestar import Controller, HttpMethod, Litestar, Router, get, post, route


class ShelfController(Controller):
    path = "/shelves"

    @get("/{shelf_id:int}")
    async def one(self, shelf_id: int) -> dict:
        return {}

    @route(http_method=[HttpMethod.PUT, HttpMethod.PATCH], path="/{shelf_id:int}/label")
    async def relabel(self, shelf_id: int) -> None:
        return None


@post(["/loans", "/loans/bulk"])
async def lend() -> None:
    return None


@get()
async def ping() -> str:
    return "pong"


v1 = Router(path="/v1", route_handlers=[ShelfController, lend])
app = Litestar(route_handlers=[v1, ping])
'''

NOT_LITESTAR = '''
from functools import lru_cache
from litestar import get


class Helper:
    @get("/never")
    async def stray(self) -> None:
        return None


@lru_cache()
def settings():
    return {}
'''

FASTSTREAM = '''
from faststream.kafka import KafkaRouter
from faststream.rabbit import RabbitRouter

orders = RabbitRouter()
audit = KafkaRouter()


@orders.subscriber("order_placed")
@orders.publisher("order_priced")
async def price(order: dict) -> dict:
    return order


@audit.subscriber(topic="audit.entries")
async def record(entry: dict) -> None:
    return None
'''


def test_controllers_routers_and_handler_functions_compose_their_paths():
    got = sorted((m, p) for m, p, *_ in apis(link_sources({"svc/app.py": CONTROLLERS})))
    assert got == [
        ("GET", "/"),
        ("GET", "/v1/shelves/{shelf_id:int}"),
        ("PATCH", "/v1/shelves/{shelf_id:int}/label"),
        ("POST", "/v1/loans"),
        ("POST", "/v1/loans/bulk"),
        ("PUT", "/v1/shelves/{shelf_id:int}/label"),
    ]


def test_a_handler_decorator_outside_a_controller_class_serves_nothing():
    assert apis(link_sources({"svc/helpers.py": NOT_LITESTAR})) == []


def test_faststream_routers_consume_and_publish():
    got = sorted((d, p, ch) for _f, _l, d, p, ch, _h in messages(link_sources({"svc/flows.py": FASTSTREAM})))
    assert got == [
        ("consumes", "kafka", "audit.entries"),
        ("consumes", "rabbitmq", "order_placed"),
        ("publishes", "rabbitmq", "order_priced"),
    ]
