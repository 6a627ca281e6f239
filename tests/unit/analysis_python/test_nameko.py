"""Nameko services: HTTP entrypoints, RPC and events as messages over RabbitMQ."""

from pyana_support import apis, link_sources, messages

KITCHEN = """
from nameko.events import EventDispatcher, event_handler
from nameko.rpc import RpcProxy, rpc
from nameko.web.handlers import http


class KitchenService:
    name = "kitchen"

    pantry = RpcProxy("pantry")
    bell = EventDispatcher()

    @http("GET,HEAD", "/dishes/<int:dish_id>")
    def show_dish(self, request, dish_id):
        return self.pantry.lookup(dish_id)

    @rpc
    def cook(self, recipe):
        self.bell("dish_ready", {"recipe": recipe})

    @rpc(expected_exceptions=ValueError)
    def taste(self, dish):
        return dish

    @event_handler("pantry", "shelf_emptied")
    def on_empty_shelf(self, payload):
        pass
"""

# the same service written with a project's own HTTP entrypoint class and keyword arguments
CUSTOM_ENTRYPOINT = """
from nameko.web.handlers import HttpRequestHandler


class JsonHandler(HttpRequestHandler):
    def response_from_exception(self, exc):
        return None


route = JsonHandler.decorator
"""

WAITER = """
from nameko import rpc as nrpc
from nameko.events import event_handler
from waiter.entry import route

SERVICE = "waiter"


class WaiterService(object):
    name = SERVICE

    kitchen = nrpc.RpcProxy(target_service="kitchen")

    @route(method="POST", url="/orders")
    def take_order(self, request):
        self.kitchen.cook.call_async(request.get_data())

    @event_handler(source_service="kitchen", event_type="dish_ready")
    def serve(self, payload):
        pass
"""

SCRIPT = """
from nameko.standalone.events import event_dispatcher
from nameko.standalone.rpc import ClusterRpcProxy

CONFIG = {"AMQP_URI": "amqp://guest:guest@broker"}


def restock():
    with ClusterRpcProxy(CONFIG) as cluster:
        cluster.pantry.refill("flour")
    dispatch = event_dispatcher(CONFIG)
    dispatch("supplier", "delivery_arrived", {})
"""


def test_http_entrypoints_are_routes_and_rpc_events_are_messages():
    facts = link_sources({"kitchen/service.py": KITCHEN})
    assert apis(facts) == [
        ("CONSUME", "pantry.shelf_emptied", "KitchenService.on_empty_shelf", "kitchen/service.py", 25),
        ("CONSUME", "rpc-kitchen", "KitchenService.cook", "kitchen/service.py", 17),
        ("CONSUME", "rpc-kitchen", "KitchenService.taste", "kitchen/service.py", 21),
        ("GET", "/dishes/<int:dish_id>", "KitchenService.show_dish", "kitchen/service.py", 13),
        ("HEAD", "/dishes/<int:dish_id>", "KitchenService.show_dish", "kitchen/service.py", 13),
    ]
    assert messages(facts) == [
        ("kitchen/service.py", 10, "publishes", "rabbitmq", "rpc-pantry", None),
        ("kitchen/service.py", 15, "publishes", "rabbitmq", "rpc-pantry", "KitchenService.show_dish"),
        ("kitchen/service.py", 17, "consumes", "rabbitmq", "rpc-kitchen", "KitchenService.cook"),
        ("kitchen/service.py", 19, "publishes", "rabbitmq", "kitchen.dish_ready", "KitchenService.cook"),
        ("kitchen/service.py", 21, "consumes", "rabbitmq", "rpc-kitchen", "KitchenService.taste"),
        (
            "kitchen/service.py",
            25,
            "consumes",
            "rabbitmq",
            "pantry.shelf_emptied",
            "KitchenService.on_empty_shelf",
        ),
    ]
    assert {a.framework for a in facts.apis} == {"nameko"}
    assert facts.framework == "nameko"


def test_subclassed_entrypoint_keywords_and_constant_service_name():
    facts = link_sources({"waiter/entry.py": CUSTOM_ENTRYPOINT, "waiter/service.py": WAITER}, root="waiter")
    assert [a for a in apis(facts) if a[0] == "POST"] == [
        ("POST", "/orders", "WaiterService.take_order", "waiter/service.py", 14)
    ]
    assert {(m[2], m[4]) for m in messages(facts)} == {
        ("publishes", "rpc-kitchen"),
        ("consumes", "kitchen.dish_ready"),
    }


def test_standalone_cluster_proxy_and_dispatcher():
    facts = link_sources({"tools/restock.py": SCRIPT}, root="tools")
    assert messages(facts) == [
        ("tools/restock.py", 10, "publishes", "rabbitmq", "rpc-pantry", None),
        ("tools/restock.py", 12, "publishes", "rabbitmq", "supplier.delivery_arrived", None),
    ]


def test_rpc_methods_of_a_mixin_serve_the_services_that_inherit_it():
    source = """
from nameko.rpc import rpc


class HealthMixin:
    @rpc
    def ping(self):
        return "pong"


class BillingService(HealthMixin):
    name = "billing"


class LedgerService(HealthMixin):
    name = "ledger"
"""
    facts = link_sources({"b/service.py": source}, root="b")
    assert sorted((m[2], m[4]) for m in messages(facts)) == [
        ("consumes", "rpc-billing"),
        ("consumes", "rpc-ledger"),
    ]
    assert facts.gaps == ()


def test_unresolved_service_name_is_one_gap_not_a_channel():
    source = """
from nameko.rpc import rpc
import os


class Mystery:
    name = os.environ["SERVICE_NAME"] + helper()

    @rpc
    def one(self):
        pass

    @rpc
    def two(self):
        pass
"""
    facts = link_sources({"m/service.py": source}, root="m")
    assert facts.messages == () and facts.apis == ()
    assert [g.kind for g in facts.gaps] == ["unsupported"]
    assert "channel not resolved" in facts.gaps[0].reason


def test_look_alike_decorators_without_nameko_are_ignored():
    source = """
def http(method, url):
    return lambda f: f


def rpc(f):
    return f


class Plain:
    name = "plain"

    @http("GET", "/x")
    def x(self):
        pass

    @rpc
    def y(self):
        pass
"""
    facts = link_sources({"p/app.py": source}, root="p")
    assert facts.apis == () and facts.messages == () and facts.gaps == ()
