"""Azure Service Bus (`createSender` / `createReceiver`) and AMQP 1.0 clients (rhea's
`open_sender` / `open_receiver`, rhea-promise's `createSender({ target })`): the queue, topic or
address a link is opened on is the channel, written in place, from the environment, or handed to a
project's publish helper; the same method names elsewhere are no channel."""

from __future__ import annotations

from .support import analyze, url


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, int]]:
    return sorted((m.direction, url(m.channel), m.provider, m.line) for m in analyze(files).messages)


def test_service_bus_senders_and_receivers_name_their_queue_or_topic() -> None:
    files = {
        "src/bus.js": """\
            const { ServiceBusClient } = require("@azure/service-bus");
            const client = new ServiceBusClient(process.env.SB_CONNECTION);
            const queueName = process.env.ORDERS_QUEUE || "orders";

            async function placeOrder(order) {
              const sender = client.createSender(queueName);
              await sender.sendMessages({ body: order });
            }

            function listen() {
              const receiver = client.createReceiver(process.env.AUDIT_TOPIC, "audit-sub");
              receiver.subscribe({ processMessage: async (m) => m, processError: async (e) => e });
            }
            module.exports = { placeOrder, listen };
            """,
    }
    assert _messages(files) == [
        ("consumes", "${AUDIT_TOPIC}", "azure-servicebus", 11),
        ("publishes", "${ORDERS_QUEUE:orders}", "azure-servicebus", 6),
    ]


def test_a_service_bus_publish_helper_is_reported_at_its_call_sites() -> None:
    files = {
        "src/messaging.ts": """\
            import { ServiceBusClient } from '@azure/service-bus';

            export class Outbox {
              private client = new ServiceBusClient(process.env.SB_CONNECTION as string);

              async publish(queue: string, body: unknown) {
                await this.client.createSender(queue).sendMessages({ body });
              }
            }
            """,
        "src/invoices.ts": """\
            import { Outbox } from './messaging';

            const outbox = new Outbox();
            export async function issue(total: number) {
              await outbox.publish('invoices-issued', { total });
            }
            """,
    }
    got = _messages(files)
    assert [(d, c, p) for d, c, p, _ in got] == [("publishes", "invoices-issued", "azure-servicebus")]


def test_rhea_links_by_address_string_or_options() -> None:
    files = {
        "worker/index.js": """\
            const container = require('rhea');
            const connection = container.connect({ host: process.env.AMQP_HOST, port: 5672 });
            connection.open_sender('shipments');
            connection.open_receiver({ source: { address: process.env.RETURNS_ADDR || 'returns' } });
            container.on('message', (ctx) => console.log(ctx.message.body));
            """,
        "meter/index.ts": """\
            import { Connection } from 'rhea-promise';

            export async function start(connection: Connection) {
              const sender = await connection.createSender({ target: { address: 'metrics' } });
              const receiver = await connection.createReceiver({ source: 'alerts', credit_window: 10 });
              return [sender, receiver];
            }
            """,
    }
    assert [row[:3] for row in _messages(files)] == [
        ("consumes", "${RETURNS_ADDR:returns}", "unknown"),
        ("consumes", "alerts", "unknown"),
        ("publishes", "metrics", "unknown"),
        ("publishes", "shipments", "unknown"),
    ]


def test_the_same_method_names_without_those_clients_are_no_channels() -> None:
    files = {
        "src/pdf.js": """\
            const pdf = require('./pdf-kit');
            const doc = pdf.createSender('letters');
            doc.open_sender('x');
            doc.createReceiver({ source: { address: 'y' } });
            """,
        "src/link.js": """\
            const rhea = require('rhea');
            const c = rhea.connect();
            c.open_sender();
            c.open_receiver({ credit_window: 5 });
            """,
    }
    assert _messages(files) == []
