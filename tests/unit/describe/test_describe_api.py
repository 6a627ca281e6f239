"""describe_api answers the route asked for, in any parameter spelling, or says it does not exist
and lists the closest routes — never silently another API of the service."""

from __future__ import annotations

import pytest

from orbitkb.domain.errors import ApiNotFound
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.paths import path_key
from orbitkb.domain.usecases.describe import DescribeApi

ROUTES = [("GET", "/orders/{id}", "get_order"), ("GET", "/orders/export", "export_orders"),
          ("POST", "/orders", "create_order"), ("GET", "/{tenant}/{page}", "catch_all"),
          ("DELETE", "/orders/<int:id>/items/:item", "remove_item")]


@pytest.fixture
def describe() -> DescribeApi:
    store = InMemoryKnowledgeStore()
    sid = service_id("shop", "orders")
    apis = tuple(Api(make_id("api", m, p), sid, m, p, h, "app.py", i + 1, i + 1) for i, (m, p, h) in enumerate(ROUTES))
    store.replace_repository_facts(Repository("shop", "/shop"),
                                   [ServiceFacts(Service(sid, "orders", "shop", ".", "python"), apis=apis)],
                                   [], [], [], [])
    return DescribeApi(store)


def test_parameter_spellings_are_one_route() -> None:
    assert path_key("/orders/{id}") == path_key("/orders/:orderId/") == path_key("orders/<int:id>") == "/orders/{}"
    assert path_key("/files/{name}.json") == "/files/{}.json"
    assert path_key("/orders/export") != path_key("/orders/{id}")


@pytest.mark.parametrize("method,path,handler", [
    ("get", "/orders/{id}", "get_order"), ("GET", "/orders/:order_id", "get_order"),
    ("GET", "/orders/<string:id>/", "get_order"), ("GET", "/orders/export", "export_orders"),
    ("DELETE", "/orders/{id}/items/{itemId}", "remove_item"), ("GET", "/{a}/{b}", "catch_all"),
])
def test_the_route_asked_for_in_any_spelling(describe: DescribeApi, method: str, path: str, handler: str) -> None:
    assert describe("orders", method, path).handler == handler


@pytest.mark.parametrize("method,path", [
    ("GET", "/orders/42"),  # a concrete URL is not a declared route; the catch-all must not answer it
    ("GET", "/payments/{id}"),  # same shape as the catch-all /{tenant}/{page}
    ("PUT", "/orders/{id}"),  # the route exists, with another method
    ("GET", "/orders"),
])
def test_anything_else_is_not_found_with_the_closest_apis(describe: DescribeApi, method: str, path: str) -> None:
    with pytest.raises(ApiNotFound) as err:
        describe("orders", method, path)
    assert f"orders has no API {method} {path}" in str(err.value)
    assert err.value.suggestions and err.value.hint and err.value.hint.startswith("closest APIs: ")


def test_the_closest_apis_put_the_same_route_first(describe: DescribeApi) -> None:
    with pytest.raises(ApiNotFound) as err:
        describe("orders", "PUT", "/orders/:id")
    assert err.value.suggestions[0] == "GET /orders/{id}"


def test_an_api_shows_every_call_and_message_its_handler_reaches_also_when_shared() -> None:
    from orbitkb.domain.model import CallKind, Direction, Message, ServiceCall

    store = InMemoryKnowledgeStore()
    sid = service_id("shop", "orders")
    create, export = (Api(make_id("api", m, p), sid, m, p, h, "app.py", 1, 2) for m, p, h in ROUTES[2:0:-1])
    shared = ServiceCall("call:1", sid, CallKind.HTTP, "payments", from_api_ids=(export.id, create.id))
    only_export = ServiceCall("call:2", sid, CallKind.HTTP, "reports", from_api_ids=(export.id,))
    published = Message("msg:1", sid, Direction.PUBLISHES, "orders.created", "kafka", api_ids=(export.id, create.id))
    store.replace_repository_facts(Repository("shop", "/shop"), [ServiceFacts(
        Service(sid, "orders", "shop", ".", "python"), apis=(create, export), calls=(shared, only_export),
        messages=(published,))], [], [], [], [])  # fmt: skip
    found = DescribeApi(store)("orders", "POST", "/orders")
    assert [c.to_service_name for c in found.calls] == ["payments"]
    assert [m.channel for m in found.messages] == ["orders.created"]
