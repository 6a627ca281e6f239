"""The Dapr Python SDK: invocations, state stores and published topics of a DaprClient."""

from __future__ import annotations

from .pyana_support import link_sources, show

SERVICE = {
    "svc/app.py": """\
import os
from dapr.clients import DaprClient

LEDGER = os.getenv("LEDGER_APP", "ledger")


def settle(order_id):
    with DaprClient() as client:
        client.save_state(store_name="settlements", key=order_id, value="{}")
        client.invoke_method(LEDGER, "entries", data="{}", http_verb="post")
        client.publish_event(pubsub_name="bus", topic_name="settled", data="{}")


def lookup(key):
    dapr = DaprClient()
    return dapr.get_state("settlements", key), dapr.get_state("audit", key)
""",
}


def test_client_methods_become_calls_entities_and_messages():
    facts = link_sources(SERVICE)
    assert [(c.method, show(c.url), c.client) for c in facts.calls] == [
        ("POST", "http://${LEDGER_APP:ledger}/entries", "dapr")
    ]
    assert sorted((e.name, e.kind, e.framework) for e in facts.entities) == [
        ("audit", "key_value", "dapr"),
        ("settlements", "key_value", "dapr"),
    ]
    assert [(m.direction, show(m.channel), m.provider) for m in facts.messages] == [
        ("publishes", "settled", "dapr:bus")
    ]


def test_same_method_names_on_other_objects_are_not_dapr():
    other = {
        "svc/store.py": """\
class Cache:
    def save_state(self, name, value):
        pass

    def invoke_method(self, app, name):
        pass


def run(cache: Cache):
    cache.save_state("settlements", "{}")
    cache.invoke_method("ledger", "entries")
""",
    }
    facts = link_sources(other)
    assert facts.calls == () and facts.entities == () and facts.messages == ()


SUBSCRIBERS = {
    "svc/web.py": """\
import os
from fastapi import FastAPI
from dapr.ext.fastapi import DaprApp

BUS = os.getenv("PUBSUB_NAME", "freight")
app = FastAPI()
dapr_app = DaprApp(app)


@dapr_app.subscribe(pubsub=BUS, topic="crates-loaded")
def loaded(event: dict):
    return {}


@dapr_app.subscribe(pubsub="freight", topic=os.getenv("LOST_TOPIC", "crates-lost"), route="/lost")
def lost(event: dict):
    return {}
""",
    "svc/legacy.py": """\
from flask import Flask
from flask_dapr import DaprApp

web = Flask(__name__)
bus = DaprApp(web)


@bus.subscribe("freight", "crates-found")
def found():
    return ""
""",
    "svc/other.py": """\
class Hub:
    def subscribe(self, pubsub, topic):
        return lambda f: f


hub = Hub()


@hub.subscribe(pubsub="freight", topic="not-dapr")
def nothing():
    return ""
""",
}


def test_dapr_app_subscriptions_consume_their_topic():
    facts = link_sources(SUBSCRIBERS)
    assert sorted((m.direction, show(m.channel), m.provider, m.client) for m in facts.messages) == [
        ("consumes", "${LOST_TOPIC:crates-lost}", "dapr:freight", "dapr"),
        ("consumes", "crates-found", "dapr:freight", "dapr"),
        ("consumes", "crates-loaded", "dapr:${PUBSUB_NAME:freight}", "dapr"),  # dapr.apply reads the default
    ]
