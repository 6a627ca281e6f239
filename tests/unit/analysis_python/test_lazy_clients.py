"""Clients a wrapper class connects lazily (``self._chan = None`` in __init__, the real one later)."""

from pyana_support import link_sources, messages

LAZY_PIKA = """
import pika


class Notifier:
    EXCHANGE = "kitchen-events"
    ROUTE = "meals"

    def __init__(self):
        self._conn = None
        self._chan = None

    def _open(self):
        self._conn = pika.BlockingConnection(pika.ConnectionParameters("broker"))
        self._chan = self._conn.channel()

    def send(self, body):
        if self._chan is None:
            self._open()
        self._chan.basic_publish(exchange=self.EXCHANGE, routing_key=self.ROUTE, body=body)
"""

# the same with class-level placeholders and a producer set up in a start() method
LAZY_KAFKA = """
from kafka import KafkaProducer

TOPIC = "meal-served"


class Emitter:
    producer = None

    def start(self):
        self.producer = KafkaProducer(bootstrap_servers="kafka:9092")

    def emit(self, data):
        self.producer.send(TOPIC, data)
"""


def test_channel_created_after_init_is_the_one_used():
    assert messages(link_sources({"svc/notify.py": LAZY_PIKA})) == [
        ("svc/notify.py", 20, "publishes", "rabbitmq", "kitchen-events", None)
    ]


def test_class_level_placeholder_replaced_in_a_method():
    assert messages(link_sources({"svc/emit.py": LAZY_KAFKA})) == [
        ("svc/emit.py", 14, "publishes", "kafka", "meal-served", None)
    ]


def test_init_value_still_wins_over_later_reassignment():
    code = """
import pika


class Sender:
    def __init__(self):
        self.chan = pika.BlockingConnection().channel()

    def reset(self):
        self.chan = make_fake_channel()

    def send(self):
        self.chan.basic_publish(exchange="", routing_key="tasks", body=b"")
"""
    assert [m[4] for m in messages(link_sources({"svc/s.py": code}))] == ["tasks"]
