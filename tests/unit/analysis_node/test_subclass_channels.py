"""Publisher/listener base classes whose channel is a field each subclass sets: the message is the
subclass's, on its own channel; the base's unfilled message is not reported beside it."""

from __future__ import annotations

from .support import analyze, url


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str]]:
    facts = analyze(files)
    return sorted((m.direction, url(m.channel), m.file, m.provider) for m in facts.messages)


NATS_BASES = {
    "src/events/subjects.ts": """\
        export enum Subjects {
          ParcelBooked = 'parcel:booked',
          ParcelLost = 'parcel:lost',
        }
        """,
    "src/events/base-publisher.ts": """\
        import { Stan } from 'node-nats-streaming';
        import { Subjects } from './subjects';

        export abstract class Publisher<T extends { subject: Subjects }> {
          abstract subject: T['subject'];
          constructor(protected client: Stan) {}
          publish(data: unknown): Promise<void> {
            return new Promise((resolve) => {
              this.client.publish(this.subject, JSON.stringify(data), () => resolve());
            });
          }
        }
        """,
    "src/events/base-listener.ts": """\
        import { Stan } from 'node-nats-streaming';
        import { Subjects } from './subjects';

        export abstract class Listener<T extends { subject: Subjects }> {
          abstract subject: T['subject'];
          abstract group: string;
          constructor(protected client: Stan) {}
          listen() {
            const sub = this.client.subscribe(this.subject, this.group);
            sub.on('message', (m) => this.onMessage(m));
          }
          abstract onMessage(m: unknown): void;
        }
        """,
}


def test_each_subclass_publishes_on_the_enum_member_it_assigns():
    files = {
        **NATS_BASES,
        "src/events/parcel-booked-publisher.ts": """\
            import { Publisher } from './base-publisher';
            import { Subjects } from './subjects';
            export class ParcelBookedPublisher extends Publisher<any> {
              subject: Subjects.ParcelBooked = Subjects.ParcelBooked;
            }
            """,
        "src/events/parcel-lost-listener.ts": """\
            import { Listener } from './base-listener';
            import { Subjects } from './subjects';
            export class ParcelLostListener extends Listener<any> {
              readonly subject = Subjects.ParcelLost;
              group = 'couriers';
              onMessage() {}
            }
            """,
    }
    assert _messages(files) == [
        ("consumes", "parcel:lost", "src/events/parcel-lost-listener.ts", "nats"),
        ("publishes", "parcel:booked", "src/events/parcel-booked-publisher.ts", "nats"),
    ]


def test_a_javascript_kafka_producer_base_with_plain_class_fields():
    files = {
        "lib/producer.js": """\
            const { Kafka } = require('kafkajs');
            const kafka = new Kafka({ brokers: [process.env.BROKER] });

            class EventProducer {
              constructor() { this.producer = kafka.producer(); }
              async emit(payload) {
                await this.producer.send({ topic: this.topic, messages: [{ value: JSON.stringify(payload) }] });
              }
            }
            module.exports = { EventProducer };
            """,
        "lib/invoice-events.js": """\
            const { EventProducer } = require('./producer');
            const TOPICS = { INVOICE_SENT: 'billing.invoice-sent' };

            class InvoiceSentProducer extends EventProducer {
              topic = TOPICS.INVOICE_SENT;
            }
            module.exports = { InvoiceSentProducer };
            """,
    }
    assert _messages(files) == [("publishes", "billing.invoice-sent", "lib/invoice-events.js", "kafka")]


def test_an_abstract_class_between_the_base_and_the_subclass():
    files = {
        "src/queue/consumer.ts": """\
            import amqp from 'amqplib';
            export abstract class QueueConsumer {
              protected abstract queue: string;
              async start(url: string) {
                const ch = await (await amqp.connect(url)).createChannel();
                await ch.consume(this.queue, (m) => this.handle(m));
              }
              abstract handle(m: unknown): void;
            }
            export abstract class RetryingConsumer extends QueueConsumer {
              retries = 3;
            }
            """,
        "src/queue/refunds.ts": """\
            import { RetryingConsumer } from './consumer';
            const QUEUES = { REFUNDS: 'refund-requests' } as const;
            export class RefundConsumer extends RetryingConsumer {
              protected queue = QUEUES.REFUNDS;
              handle() {}
            }
            """,
    }
    assert _messages(files) == [("consumes", "refund-requests", "src/queue/refunds.ts", "rabbitmq")]


def test_a_channel_built_from_the_field_keeps_the_rest_of_the_template():
    files = {
        "src/bus.ts": """\
            import { Kafka } from 'kafkajs';
            const producer = new Kafka({ brokers: ['k:9092'] }).producer();
            export abstract class DomainEvents {
              abstract aggregate: string;
              send(e: unknown) {
                return producer.send({ topic: `fleet.${this.aggregate}.events`, messages: [] });
              }
            }
            export class TruckEvents extends DomainEvents {
              aggregate = 'truck';
            }
            """,
    }
    assert _messages(files) == [("publishes", "fleet.truck.events", "src/bus.ts", "kafka")]


def test_without_subclasses_the_base_message_stays_a_gap_with_its_expression():
    assert _messages(dict(NATS_BASES)) == [
        ("consumes", "{?this.subject}", "src/events/base-listener.ts", "nats"),
        ("publishes", "{?this.subject}", "src/events/base-publisher.ts", "nats"),
    ]


def test_a_subclass_that_sets_no_channel_and_an_unrelated_class_are_not_messages():
    files = {
        **NATS_BASES,
        "src/events/generic.ts": """\
            import { Publisher } from './base-publisher';
            export abstract class GenericPublisher extends Publisher<any> {
              retries = 2;
            }
            """,
        "src/other.ts": """\
            import { Subjects } from './events/subjects';
            class Unrelated {
              subject = Subjects.ParcelLost;
            }
            """,
    }
    found = _messages(files)
    assert ("consumes", "parcel:lost", "src/other.ts", "nats") not in found
    assert [m for m in found if m[1] != "{?this.subject}"] == []
