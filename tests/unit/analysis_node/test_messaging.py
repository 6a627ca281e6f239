"""kafkajs, amqplib, AWS SDK v2/v3, NATS, ioredis and gRPC clients built from loaded protos."""

from __future__ import annotations

from .support import analyze, url

FILES = {
    "src/topics.js": """\
        const PREFIX = process.env.TOPIC_PREFIX || 'shop';
        module.exports = { ORDER_CREATED: `${PREFIX}.order.created`, REFUNDS: PREFIX + '.refunds' };
        """,
    "src/kafka.js": """\
        const { Kafka } = require('kafkajs');
        const { ORDER_CREATED, REFUNDS } = require('./topics');

        const kafka = new Kafka({ clientId: 'orders', brokers: [process.env.KAFKA_BROKER] });
        const producer = kafka.producer();
        const consumer = kafka.consumer({ groupId: 'orders' });

        async function publishOrder(order) {
          await producer.send({ topic: ORDER_CREATED, messages: [{ value: JSON.stringify(order) }] });
        }

        async function start() {
          await consumer.subscribe({ topics: ['payments.done', REFUNDS], fromBeginning: true });
          await consumer.subscribe({ topic: 'inventory.low' });
        }
        module.exports = { publishOrder, start };
        """,
    "src/rabbit.ts": """\
        import amqp from 'amqplib';
        const QUEUE = 'emails';

        export async function wire(url: string) {
          const conn = await amqp.connect(url);
          const ch = await conn.createChannel();
          ch.publish('orders', 'order.shipped', Buffer.from('x'));
          ch.publish('', 'direct-queue', Buffer.from('x'));
          ch.sendToQueue(QUEUE, Buffer.from('x'));
          await ch.consume('invoices', (msg) => ch.ack(msg));
        }
        """,
    "src/aws.ts": """\
        import { SQSClient, SendMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
        import { SNSClient, PublishCommand } from '@aws-sdk/client-sns';
        import AWS from 'aws-sdk';

        const sqs = new SQSClient({});
        export const send = (body: string) =>
          sqs.send(new SendMessageCommand({ QueueUrl: process.env.ORDERS_QUEUE_URL, MessageBody: body }));
        export const poll = () => sqs.send(new ReceiveMessageCommand({ QueueUrl: process.env.ORDERS_QUEUE_URL }));
        export const notify = () => new SNSClient({}).send(new PublishCommand({ TopicArn: 'arn:aws:sns:eu:1:alerts' }));
        const legacy = new AWS.SQS();
        export const old = () => legacy.sendMessage({ QueueUrl: 'https://sqs/legacy', MessageBody: '' }).promise();
        """,
    "src/bus.mjs": """\
        import { connect, StringCodec } from 'nats';
        import Redis from 'ioredis';

        const nc = await connect({ servers: process.env.NATS_URL });
        nc.publish('orders.shipped', StringCodec().encode('x'));
        nc.subscribe('orders.*');
        """,
    "src/cache.js": """\
        const Redis = require('ioredis');
        const pub = new Redis();
        const sub = new Redis();
        pub.publish('cache-invalidate', 'all');
        sub.subscribe('cache-invalidate', (err) => {});
        pub.xadd('audit-stream', '*', 'k', 'v');
        """,
    "src/grpc.js": """\
        const grpc = require('@grpc/grpc-js');
        const protoLoader = require('@grpc/proto-loader');
        const def = protoLoader.loadSync(__dirname + '/payments.proto');
        const proto = grpc.loadPackageDefinition(def).payments;

        const client = new proto.PaymentService(
          process.env.PAYMENTS_GRPC || 'payments:50051',
          grpc.credentials.createInsecure(),
        );
        const server = new grpc.Server();
        server.addService(proto.OrderService.service, { getOrder: () => {} });
        """,
}


def test_messages_exact() -> None:
    facts = analyze(FILES)
    got = sorted((m.file, m.line, m.direction, url(m.channel), m.provider) for m in facts.messages)
    assert got == [
        ("src/aws.ts", 7, "publishes", "${ORDERS_QUEUE_URL}", "sqs"),
        ("src/aws.ts", 8, "consumes", "${ORDERS_QUEUE_URL}", "sqs"),
        ("src/aws.ts", 9, "publishes", "arn:aws:sns:eu:1:alerts", "sns"),
        ("src/aws.ts", 11, "publishes", "https://sqs/legacy", "sqs"),
        ("src/bus.mjs", 5, "publishes", "orders.shipped", "nats"),
        ("src/bus.mjs", 6, "consumes", "orders.*", "nats"),
        ("src/cache.js", 4, "publishes", "cache-invalidate", "redis"),
        ("src/cache.js", 5, "consumes", "cache-invalidate", "redis"),
        ("src/cache.js", 6, "publishes", "audit-stream", "redis"),
        ("src/kafka.js", 9, "publishes", "${TOPIC_PREFIX:shop}.order.created", "kafka"),
        ("src/kafka.js", 13, "consumes", "${TOPIC_PREFIX:shop}.refunds", "kafka"),
        ("src/kafka.js", 13, "consumes", "payments.done", "kafka"),
        ("src/kafka.js", 14, "consumes", "inventory.low", "kafka"),
        ("src/rabbit.ts", 7, "publishes", "orders", "rabbitmq"),
        ("src/rabbit.ts", 8, "publishes", "direct-queue", "rabbitmq"),
        ("src/rabbit.ts", 9, "publishes", "emails", "rabbitmq"),
        ("src/rabbit.ts", 10, "consumes", "invoices", "rabbitmq"),
    ]
    assert {m.component for m in facts.messages if m.file == "src/kafka.js"} == {"kafka"}


def test_grpc_clients_and_implemented_services() -> None:
    facts = analyze(FILES)
    got = [(c.kind, c.client, c.grpc_service, url(c.url), c.line) for c in facts.calls]
    assert got == [("grpc", "grpc-client", "PaymentService", "${PAYMENTS_GRPC:payments:50051}", 6)]
    assert facts.grpc_implements == ("OrderService",)


def test_enum_and_constant_topics_across_modules() -> None:
    facts = analyze(
        {
            "src/events.ts": "export enum Topics {\n  ORDER_PAID = 'order.paid',\n}\n",
            "src/pay.ts": """\
                import { Kafka } from 'kafkajs';
                import { Topics } from './events';
                const producer = new Kafka({ brokers: [] }).producer();
                export const paid = () => producer.send({ topic: Topics.ORDER_PAID, messages: [] });
                """,
        }
    )
    assert [(url(m.channel), m.provider, m.line) for m in facts.messages] == [("order.paid", "kafka", 4)]


# ----------------------------------------------------------------------------- the project's own helpers

HELPER_CJS = {
    "src/bus.js": """\
        const { Kafka } = require('kafkajs')
        const producer = new Kafka({ brokers: ['broker:9092'] }).producer()
        async function publish(topic, payload) {
          await producer.send({ topic, messages: [{ value: JSON.stringify(payload) }] })
        }
        const audit = (what, payload) => publish('audit.' + what, payload)
        module.exports = { publish, audit }
        """,
    "src/invoices.js": """\
        const bus = require('./bus')
        const ISSUED = 'invoices.issued'
        exports.issue = async (inv) => {
          await bus.publish(ISSUED, inv)
          await bus.audit('invoice', inv)
        }
        """,
}

HELPER_TS = {
    "src/events/publisher.ts": """\
        import * as amqp from 'amqplib';
        export class EventPublisher {
          private channel!: amqp.Channel;
          async emit(exchange: string, event: object) {
            this.channel.publish(exchange, '', Buffer.from(JSON.stringify(event)));
          }
        }
        """,
    "src/parcels/parcels.service.ts": """\
        import { EventPublisher } from '../events/publisher';
        export class ParcelsService {
          constructor(private readonly events: EventPublisher) {}
          async ship(id: string) {
            await this.events.emit('parcel-events', { id });
          }
        }
        """,
}


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str, int]]:
    return sorted((m.direction, url(m.channel), m.provider, m.file, m.line) for m in analyze(files).messages)


def test_channel_of_a_publish_helper_comes_from_its_call_sites_commonjs() -> None:
    assert _messages(HELPER_CJS) == [
        ("publishes", "audit.invoice", "kafka", "src/invoices.js", 5),
        ("publishes", "invoices.issued", "kafka", "src/invoices.js", 4),
    ]


def test_channel_of_a_class_publisher_comes_from_its_call_sites_typescript() -> None:
    assert _messages(HELPER_TS) == [
        ("publishes", "parcel-events", "rabbitmq", "src/parcels/parcels.service.ts", 5)
    ]


def test_helper_nobody_calls_stays_one_message_naming_its_parameter() -> None:
    # `audit` passes its own parameter on and nobody calls it: reported once, where it calls `publish`.
    assert _messages({"src/bus.js": HELPER_CJS["src/bus.js"]}) == [
        ("publishes", "audit.{?what}", "kafka", "src/bus.js", 6)
    ]
    alone = {
        "src/bus.js": HELPER_CJS["src/bus.js"].replace(
            "const audit = (what, payload) => publish('audit.' + what, payload)\n", ""
        )
    }
    assert _messages(alone) == [("publishes", "{?topic}", "kafka", "src/bus.js", 4)]


# ----------------------------------------------------------------------------- queues the broker names

SERVER_NAMED = {
    # promise API, the queue held as `q.queue`, exchange and key from constants
    "src/listen.js": """\
        const amqplib = require('amqplib')
        const HUB = process.env.HUB_EXCHANGE || 'hub'
        const MY_KEY = 'billing_key'
        module.exports.listen = async (ch, onEvent) => {
          await ch.assertExchange(HUB, 'direct', { durable: true })
          const q = await ch.assertQueue('', { exclusive: true })
          ch.bindQueue(q.queue, HUB, MY_KEY)
          ch.consume(q.queue, (msg) => onEvent(msg.content.toString()), { noAck: true })
        }
        """,
    # destructured name, TypeScript
    "src/fanout.ts": """\
        import * as amqp from 'amqplib';
        export async function follow(ch: amqp.Channel) {
          const { queue } = await ch.assertQueue('', { exclusive: true });
          await ch.bindQueue(queue, 'audit-fanout', '');
          await ch.consume(queue, (m) => m && ch.ack(m));
        }
        """,
    # callback API: the queue arrives as the callback's second parameter
    "src/legacy.js": """\
        var amqp = require('amqplib/callback_api');
        amqp.connect('amqp://mq', function (e, conn) {
          conn.createChannel(function (e2, ch) {
            ch.assertQueue('', { exclusive: true }, function (e3, q) {
              ch.bindQueue(q.queue, 'weather', 'rain');
              ch.consume(q.queue, function (msg) {}, { noAck: true });
            });
          });
        });
        """,
}


def test_server_named_queue_consumes_the_exchange_it_binds() -> None:
    assert _messages(SERVER_NAMED) == [
        ("consumes", "${HUB_EXCHANGE:hub}", "rabbitmq", "src/listen.js", 7),
        ("consumes", "audit-fanout", "rabbitmq", "src/fanout.ts", 4),
        ("consumes", "weather", "rabbitmq", "src/legacy.js", 5),
    ]


def test_named_queue_keeps_its_consume_and_its_binding_adds_nothing() -> None:
    files = {
        "src/worker.js": """\
            const amqp = require('amqplib')
            async function work(ch) {
              await ch.assertQueue('mail-jobs', { durable: true })
              await ch.bindQueue('mail-jobs', 'jobs', 'mail')
              const q = await ch.assertQueue('reports', { durable: true })
              ch.consume('mail-jobs', () => {})
              ch.consume(q.queue, () => {})
            }
            module.exports = { work }
            """
    }
    got = _messages(files)
    assert ("consumes", "mail-jobs", "rabbitmq", "src/worker.js", 6) in got
    assert not any(m[1] == "jobs" for m in got)
    assert [m for m in got if m[4] == 4] == []
