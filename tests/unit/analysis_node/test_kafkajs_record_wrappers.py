"""A project's kafkajs wrapper that takes the whole record (``produce(record) { producer.send(record) }``,
``consume(topics) { consumer.subscribe(topics) }``): the topic is the one each call site's record
names, one channel per topic when a call site names several at once. Without kafkajs in the file a
``send(x)`` is no message."""

from __future__ import annotations

from .support import analyze, url

PRODUCER = """\
    import { Injectable, OnModuleInit } from '@nestjs/common';
    import { Kafka, Producer, ProducerRecord } from 'kafkajs';

    @Injectable()
    export class BusProducer implements OnModuleInit {
      private readonly kafka = new Kafka({ brokers: [process.env.BROKERS] });
      private readonly producer: Producer = this.kafka.producer();
      async onModuleInit() { await this.producer.connect(); }
      async produce(record: ProducerRecord) { await this.producer.send(record); }
    }
    """
CONSUMER = """\
    import { Injectable } from '@nestjs/common';
    import { ConsumerSubscribeTopics, Kafka } from 'kafkajs';

    @Injectable()
    export class BusConsumer {
      private readonly kafka = new Kafka({ brokers: ['broker:9092'] });
      async consume(topics: ConsumerSubscribeTopics, onMessage: any) {
        const consumer = this.kafka.consumer({ groupId: 'ledger' });
        await consumer.subscribe(topics);
        await consumer.run({ eachMessage: onMessage });
      }
    }
    """
TOPICS = "export const INVOICE_ISSUED = 'invoice.issued';\n"


def flows(files: dict[str, str]) -> list[tuple[str, str | None]]:
    return sorted((m.direction, url(m.channel)) for m in analyze(files).messages)


def test_record_wrappers_report_the_topic_of_each_call_site():
    users = """\
        import { Injectable, OnModuleInit } from '@nestjs/common';
        import { BusProducer } from './bus/producer';
        import { BusConsumer } from './bus/consumer';
        import { INVOICE_ISSUED } from './topics';

        @Injectable()
        export class Invoices implements OnModuleInit {
          constructor(private readonly bus: BusProducer, private readonly inbox: BusConsumer) {}
          async issue(id: string) { await this.bus.produce({ topic: INVOICE_ISSUED, messages: [{ value: id }] }); }
          async onModuleInit() {
            await this.inbox.consume({ topics: ['payment.settled'] }, async () => {});
            await this.inbox.consume({ topic: 'refund.granted', fromBeginning: true }, async () => {});
          }
        }
        """
    files = {"src/bus/producer.ts": PRODUCER, "src/bus/consumer.ts": CONSUMER, "src/topics.ts": TOPICS,
             "src/invoices.ts": users}  # fmt: skip
    assert flows(files) == [
        ("consumes", "payment.settled"),
        ("consumes", "refund.granted"),
        ("publishes", "invoice.issued"),
    ]


def test_a_topics_parameter_spread_into_subscribe_takes_a_one_item_array():
    text = """\
        import { Kafka } from 'kafkajs';
        const consumer = new Kafka({ brokers: ['broker:9092'] }).consumer({ groupId: 'audit' });
        export async function listen(topics: string[]) { await consumer.subscribe({ topics, fromBeginning: false }); }
        export async function start() { await listen(['audit.trail']); }
        """
    assert flows({"src/listen.ts": text}) == [("consumes", "audit.trail")]


def test_several_topics_at_one_call_site_give_one_channel_per_topic():
    users = """\
        import { BusConsumer } from './bus/consumer';
        import { INVOICE_ISSUED } from './topics';
        export class Many {
          constructor(private readonly inbox: BusConsumer) {}
          async start() {
            await this.inbox.consume({ topics: ['a.one', INVOICE_ISSUED], fromBeginning: true }, async () => {});
          }
        }
        """
    files = {"src/bus/consumer.ts": CONSUMER, "src/topics.ts": TOPICS, "src/many.ts": users}
    assert flows(files) == [("consumes", "a.one"), ("consumes", "invoice.issued")]


def test_an_array_of_several_topics_spread_into_subscribe_gives_each():
    text = """\
        import { Kafka } from 'kafkajs';
        const consumer = new Kafka({ brokers: ['broker:9092'] }).consumer({ groupId: 'audit' });
        async function listen(topics: string[]) { await consumer.subscribe({ topics }); }
        export const start = () => listen(['audit.trail', 'audit.purge', 'audit.trail']);
        """
    assert flows({"src/listen.ts": text}) == [("consumes", "audit.purge"), ("consumes", "audit.trail")]


def test_several_values_for_a_non_topic_argument_are_no_extra_channels():
    text = """\
        import { Kafka } from 'kafkajs';
        const producer = new Kafka({ brokers: ['broker:9092'] }).producer();
        async function emit(topic: string, values: string[]) {
          await producer.send({ topic, messages: values.map((value) => ({ value })) });
        }
        export const go = () => emit('ledger.entry', ['x', 'y']);
        """
    assert flows({"src/emit.ts": text}) == [("publishes", "ledger.entry")]


def test_send_of_a_parameter_without_kafkajs_is_no_message():
    text = """\
        import WebSocket from 'ws';
        export class Pipe {
          constructor(private readonly socket: WebSocket) {}
          push(frame: string) { this.socket.send(frame); }
        }
        export const use = (p: Pipe) => p.push('hello');
        """
    assert flows({"src/pipe.ts": text}) == []
