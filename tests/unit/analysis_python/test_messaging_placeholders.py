"""Channel names written as templates: an f-string, ``str.format`` (also on a template kept in a
constant) or ``%`` folds when its fields are constants or configuration; a field nothing names leaves
one gap with the expression at that site, never a channel called ``{queue}``."""

from pyana_support import link_sources, show

RABBIT = '''
import os
import pika
from pydantic_settings import BaseSettings

STOCK = "stock"
DEAD_LETTER = "{queue}.dead"


class Settings(BaseSettings):
    audit_exchange: str = "audit"


settings = Settings()


class Outbox:
    def __init__(self):
        self.channel = pika.BlockingConnection(pika.ConnectionParameters("mq")).channel()

    def flush(self, body, reply_to):
        self.channel.basic_publish(exchange="", routing_key=f"{STOCK}.reserved", body=body)
        self.channel.basic_publish(exchange="", routing_key="{}.released".format(STOCK), body=body)
        self.channel.basic_publish(exchange="", routing_key=DEAD_LETTER.format(queue=STOCK), body=body)
        self.channel.basic_publish(exchange="", routing_key="%s.counted" % STOCK, body=body)
        self.channel.basic_publish(exchange=f"{settings.audit_exchange}", routing_key="x", body=body)
        self.channel.basic_publish(exchange="", routing_key=f"{os.getenv('ZONE', 'north')}.stock", body=body)
        self.channel.basic_publish(exchange="", routing_key=reply_to, body=body)
        self.channel.basic_publish(exchange="", routing_key="{queue}", body=body)
        self.channel.basic_publish(exchange="", routing_key=DEAD_LETTER, body=body)
'''

AIO = '''
import json
import aio_pika

EVENTS = "ledger"


async def relay(connection: aio_pika.abc.AbstractRobustConnection, raw):
    channel = await connection.channel()
    exchange = await channel.declare_exchange("{}_events".format(EVENTS), aio_pika.ExchangeType.TOPIC)
    await exchange.publish(aio_pika.Message(raw), routing_key="entry")
    target = await channel.declare_exchange(json.loads(raw)["exchange"])
    await target.publish(aio_pika.Message(raw), routing_key="entry")
'''

KAFKA = '''
from aiokafka import AIOKafkaProducer

TOPIC_TEMPLATE = "{tenant}.invoices"
TENANT = "acme"


async def emit(producer: AIOKafkaProducer, payload, tenant_of_request):
    await producer.send_and_wait(TOPIC_TEMPLATE.format(tenant=TENANT), payload)
    await producer.send_and_wait(TOPIC_TEMPLATE.format(tenant=tenant_of_request), payload)
    await producer.send_and_wait(TOPIC_TEMPLATE, payload)
'''


def _flows(facts):
    return sorted((m.line, m.direction, show(m.channel)) for m in facts.messages)


def _gaps(facts):
    return sorted(g.reason for g in facts.gaps)


def test_templates_over_constants_and_configuration_fold_to_the_channel():
    got = _flows(link_sources({"svc/outbox.py": RABBIT}))
    assert got == [
        (22, "publishes", "stock.reserved"),
        (23, "publishes", "stock.released"),
        (24, "publishes", "stock.dead"),  # the template itself is a constant
        (25, "publishes", "stock.counted"),
        (26, "publishes", "${AUDIT_EXCHANGE:audit}"),
        (27, "publishes", "${ZONE:north}.stock"),
    ]


def test_a_field_nothing_names_is_one_gap_with_its_expression_never_a_channel():
    facts = link_sources({"svc/outbox.py": RABBIT})
    assert not any("queue" in (show(m.channel) or "") or "<" in (show(m.channel) or "") for m in facts.messages)
    assert _gaps(facts) == [
        "rabbitmq publishes at line 28: channel not resolved ({reply_to})",
        "rabbitmq publishes at line 29: channel not resolved ({queue})",
        "rabbitmq publishes at line 30: channel not resolved ({queue}.dead)",
    ]


def test_aio_pika_exchange_named_by_format_and_by_a_runtime_value():
    facts = link_sources({"svc/relay.py": AIO})
    assert _flows(facts) == [(11, "publishes", "ledger_events")]
    assert _gaps(facts) == ["rabbitmq publishes at line 13: channel not resolved ({json.loads()[exchange]})"]


def test_kafka_topic_template_kept_in_a_constant():
    facts = link_sources({"svc/emit.py": KAFKA})
    assert _flows(facts) == [(9, "publishes", "acme.invoices")]
    assert _gaps(facts) == [
        "kafka publishes at line 10: channel not resolved ({tenant_of_request}.invoices)",
        "kafka publishes at line 11: channel not resolved ({tenant}.invoices)",
    ]


LIST_SETTINGS = {
    "svc/settings.py": '''
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    inbound_topics: list[str] = ["orders.created", "orders.cancelled"]
    audit_topics: list[str] = ["audit"]


settings = Settings()
''',
    "svc/consume.py": '''
from aiokafka import AIOKafkaConsumer
from kafka import KafkaConsumer
from svc.settings import settings


async def run():
    inbound = AIOKafkaConsumer(*settings.inbound_topics, bootstrap_servers="kafka:9092")
    audit = KafkaConsumer(bootstrap_servers="kafka:9092")
    audit.subscribe(topics=settings.audit_topics)
''',
}


def test_a_list_setting_names_each_topic_of_its_default():
    got = _flows(link_sources(LIST_SETTINGS))
    assert got == [
        (8, "consumes", "orders.cancelled"),
        (8, "consumes", "orders.created"),
        (10, "consumes", "audit"),
    ]
