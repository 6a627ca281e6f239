"""An aio-pika queue read by iterating it (``async for message in queue``) is consumed, like one
read through ``queue.consume(cb)`` or ``queue.iterator()``; iterating anything else says nothing."""

from pyana_support import link_sources, messages

CONF = '''
import os


class Conf:
    BROKER: str = os.getenv("BROKER", "amqp://guest:guest@mq/")
    INVOICE_QUEUE: str = os.getenv("INVOICE_QUEUE", "invoices_due")


conf = Conf()
'''

LOCAL_QUEUE = '''
import aio_pika

from svc.conf import conf


async def drain():
    connection = await aio_pika.connect_robust(conf.BROKER)
    channel = await connection.channel()
    queue = await channel.declare_queue(conf.INVOICE_QUEUE, durable=True)
    async for message in queue:
        async with message.process():
            print(message.body)
'''

ATTRIBUTE_QUEUE = '''
import aio_pika


class Listener:
    async def open(self, url):
        self.connection = await aio_pika.connect(url)
        self.channel = await self.connection.channel()
        self.queue = await self.channel.declare_queue("refunds")

    async def run(self):
        async for incoming in self.queue:
            await incoming.ack()
'''

ITERATOR = '''
import aio_pika


async def follow(url):
    connection = await aio_pika.connect_robust(url)
    channel = await connection.channel()
    queue = await channel.declare_queue("shipments")
    async with queue.iterator() as stream:
        async for message in stream:
            await message.ack()
'''

NOT_A_QUEUE = '''
import aio_pika


async def rows(cursor):
    async for row in cursor:
        print(row)


async def declare_only(url):
    connection = await aio_pika.connect_robust(url)
    channel = await connection.channel()
    names = ["a", "b"]
    await channel.declare_queue("declared_never_read")
    for name in names:
        print(name)
'''


def _flows(facts):
    return sorted((d, p, ch) for _f, _l, d, p, ch, _h in messages(facts))


def test_iterating_a_declared_queue_consumes_it_by_its_settings_name():
    facts = link_sources({"svc/conf.py": CONF, "svc/worker.py": LOCAL_QUEUE})
    assert _flows(facts) == [("consumes", "rabbitmq", "${INVOICE_QUEUE:invoices_due}")]


def test_iterating_a_queue_kept_on_self_consumes_it():
    assert _flows(link_sources({"svc/listener.py": ATTRIBUTE_QUEUE})) == [("consumes", "rabbitmq", "refunds")]


def test_the_queue_iterator_still_consumes_once():
    assert _flows(link_sources({"svc/follow.py": ITERATOR})) == [("consumes", "rabbitmq", "shipments")]


def test_iterating_other_objects_or_only_declaring_a_queue_is_no_flow():
    assert _flows(link_sources({"svc/rows.py": NOT_A_QUEUE})) == []
