"""aio-pika exchanges handed to the code that publishes or binds through them (a ``Depends``
provider reading ``app.state``, a constructor parameter typed ``AbstractExchange``) are the one
named exchange the service declares; with several declared, or through the default exchange,
the routing key still names the channel."""

from pyana_support import link_sources, messages

SETTINGS = '''
from pydantic import Field
from pydantic_settings import BaseSettings


class Conf(BaseSettings):
    broker_url: str = "amqp://guest:guest@mq/"
    events_exchange: str = Field("shop.events", description="where events go")


conf = Conf()
'''

LIFESPAN = '''
from contextlib import asynccontextmanager

import aio_pika
from fastapi import FastAPI

from svc.conf import conf


@asynccontextmanager
async def lifespan(app: FastAPI):
    connection = await aio_pika.connect_robust(conf.broker_url)
    channel = await connection.channel()
    app.state.events = await channel.declare_exchange(name=conf.events_exchange, type=aio_pika.ExchangeType.TOPIC)
    yield
    await connection.close()


app = FastAPI(lifespan=lifespan)
'''

HANDLER = '''
import aio_pika
from fastapi import APIRouter, Depends, Request

router = APIRouter()


async def events_exchange(request: Request) -> aio_pika.abc.AbstractExchange:
    return request.app.state.events


@router.post("/carts/{cart_id}/checkout")
async def checkout(cart_id: str, exchange: aio_pika.abc.AbstractExchange = Depends(events_exchange)):
    await exchange.publish(aio_pika.Message(body=cart_id.encode()), routing_key="cart.checked_out")
'''

WORKER = '''
import aio_pika
from aio_pika.abc import AbstractExchange


class StockWorker:
    def __init__(self, exchange: AbstractExchange):
        self.exchange = exchange

    async def start(self):
        channel = self.exchange.channel
        inbox = await channel.declare_queue("stock_inbox", durable=True)
        await inbox.bind(exchange=self.exchange, routing_key="cart.checked_out")
        await inbox.consume(self.on_message)

    async def on_message(self, message):
        await self.exchange.publish(aio_pika.Message(b"ok"), routing_key="stock.reserved")


async def main(url):
    connection = await aio_pika.connect_robust(url)
    channel = await connection.channel()
    exchange = await channel.declare_exchange("warehouse", aio_pika.ExchangeType.TOPIC)
    await StockWorker(exchange).start()
'''

TWO_EXCHANGES = '''
import aio_pika


async def setup(channel: aio_pika.abc.AbstractChannel):
    await channel.declare_exchange("audit")
    await channel.declare_exchange("alerts")


async def send(exchange: aio_pika.abc.AbstractExchange):
    await exchange.publish(aio_pika.Message(b"x"), routing_key="audit.entry")
'''

DEFAULT_EXCHANGE = '''
import aio_pika


async def enqueue(url):
    connection = await aio_pika.connect_robust(url)
    channel = await connection.channel()
    await channel.declare_exchange("notices")
    await channel.default_exchange.publish(aio_pika.Message(b"x"), routing_key="mail_jobs")
'''


def _flows(facts):
    return sorted((d, p, ch) for _f, _l, d, p, ch, _h in messages(facts))


def test_an_exchange_from_app_state_through_depends_is_the_declared_one():
    facts = link_sources({"svc/conf.py": SETTINGS, "svc/main.py": LIFESPAN, "svc/api.py": HANDLER})
    assert _flows(facts) == [("publishes", "rabbitmq", "${EVENTS_EXCHANGE:shop.events}")]


def test_an_exchange_handed_to_a_constructor_names_binds_and_publishes():
    assert _flows(link_sources({"svc/worker.py": WORKER})) == [
        ("consumes", "rabbitmq", "stock_inbox"),
        ("consumes", "rabbitmq", "warehouse"),
        ("publishes", "rabbitmq", "warehouse"),
    ]


def test_with_several_exchanges_declared_the_routing_key_stays():
    assert _flows(link_sources({"svc/audit.py": TWO_EXCHANGES})) == [("publishes", "rabbitmq", "audit.entry")]


def test_the_default_exchange_publishes_to_the_routing_key():
    assert _flows(link_sources({"svc/mail.py": DEFAULT_EXCHANGE})) == [("publishes", "rabbitmq", "mail_jobs")]
