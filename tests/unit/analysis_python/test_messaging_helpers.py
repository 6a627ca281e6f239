"""A project's own messaging helpers: the channel a helper is given is reported at each call site;
aio-pika connections, channels and exchanges handed in with their abstract types are recognised."""

from pyana_support import link_sources, show

HELPERS = '''
import aio_pika
from aio_pika.abc import AbstractRobustConnection


class Listener:
    def __init__(self):
        self.connection = None

    def attach(self, connection: AbstractRobustConnection):
        self.connection = connection

    async def listen_refunds(self):
        await self.listen(binding="refund.issued", handler=print)

    async def listen_chargebacks(self):
        await self.listen("chargeback.opened", print)

    async def listen(self, binding, handler):
        channel = await self.connection.channel()
        exchange = await channel.declare_exchange(name="ledger_events", type=aio_pika.ExchangeType.TOPIC)
        queue = await channel.declare_queue(f"{binding}_inbox", durable=True)
        await queue.bind(exchange, routing_key=binding)
        await queue.consume(handler)


class Announcer:
    def __init__(self, connection: aio_pika.abc.AbstractConnection):
        self.connection = connection

    async def announce(self, key, body):
        channel = await self.connection.channel()
        exchange = await channel.declare_exchange("ledger_announcements", aio_pika.ExchangeType.TOPIC)
        await exchange.publish(aio_pika.Message(body), routing_key=key)
'''

UNCALLED = '''
import pika


def publish_to(queue, body):
    connection = pika.BlockingConnection(pika.ConnectionParameters("mq"))
    connection.channel().basic_publish(exchange="", routing_key=queue, body=body)
'''


def _flows(facts):
    return sorted((m.direction, show(m.channel), m.file, m.line) for m in facts.messages)


def test_helper_channels_are_reported_at_their_call_sites():
    got = _flows(link_sources({"svc/listener.py": HELPERS}))
    assert ("consumes", "refund.issued_inbox", "svc/listener.py", 14) in got
    assert ("consumes", "chargeback.opened_inbox", "svc/listener.py", 17) in got
    assert not any("binding" in (ch or "") for _d, ch, _f, _l in got)


def test_aio_pika_objects_handed_in_with_their_abstract_types_name_their_exchange():
    got = _flows(link_sources({"svc/listener.py": HELPERS}))
    assert ("publishes", "ledger_announcements", "svc/listener.py", 34) in got
    assert ("consumes", "ledger_events", "svc/listener.py", 23) in got


def test_a_helper_nobody_calls_leaves_one_gap_at_its_site_with_the_unresolved_name():
    facts = link_sources({"svc/pub.py": UNCALLED})
    assert facts.messages == ()  # never a channel named after the parameter
    assert [(g.file, g.reason) for g in facts.gaps] == [
        ("svc/pub.py", "rabbitmq publishes at line 7: channel not resolved ({queue})")
    ]


STR_METHODS = '''
import os
import pika

PREFIX = "Billing"


def listen(binding):
    channel = pika.BlockingConnection(pika.ConnectionParameters("mq")).channel()
    channel.basic_consume(queue=f"{binding}_queue".replace("*", "_"), on_message_callback=print)


def start():
    listen("invoice.*.paid")
    channel = pika.BlockingConnection(pika.ConnectionParameters("mq")).channel()
    channel.basic_publish(exchange=(PREFIX + ".Events").lower(), routing_key="x", body=b"")
    channel.basic_publish(exchange=os.environ["EXCHANGE"].upper(), routing_key="x", body=b"")
'''


def test_string_methods_fold_literal_text_once_parameters_are_known():
    got = {ch for _d, ch, _f, _l in _flows(link_sources({"svc/listen.py": STR_METHODS}))}
    assert "invoice._.paid_queue" in got
    assert "billing.events" in got
    assert not any("*" in (c or "") for c in got)
