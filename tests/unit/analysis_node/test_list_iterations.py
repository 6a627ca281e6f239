"""A callback run for each item of a literal list of names: the channel it builds from its parameter
is one channel per item (`["a", "b"].forEach((t) => consumer.subscribe({ topic: t }))`)."""

from __future__ import annotations

from .support import analyze, url


def _channels(files: dict[str, str]) -> list[tuple[str, str | None]]:
    return sorted((m.direction, url(m.channel)) for m in analyze(files).messages)


def test_for_each_over_an_inline_list_subscribes_to_each_topic() -> None:
    code = """\
        import { Kafka } from 'kafkajs';
        const consumer = new Kafka({ brokers: ['kafka:9092'] }).consumer({ groupId: 'mill' });
        export async function start() {
          ['grain.delivered', 'grain.milled'].forEach(async (topic) => {
            await consumer.subscribe({ topic });
          });
        }
        """
    assert _channels({"src/mill.ts": code}) == [("consumes", "grain.delivered"), ("consumes", "grain.milled")]


def test_map_over_a_constant_list_builds_one_channel_per_item() -> None:
    code = """\
        const { Kafka } = require('kafkajs');
        const STAGES = ['sift', 'bake'];
        const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();
        async function announce() {
          await Promise.all(STAGES.map((stage) => producer.send({ topic: `bakery.${stage}.done`, messages: [] })));
        }
        module.exports = { announce };
        """
    assert _channels({"src/bakery.js": code}) == [
        ("publishes", "bakery.bake.done"),
        ("publishes", "bakery.sift.done"),
    ]


def test_a_class_field_list_iterated_in_a_method_sends_to_each_name() -> None:
    code = """\
        import { Controller, Get, Inject } from '@nestjs/common';
        import { ClientKafka } from '@nestjs/microservices';

        @Controller()
        export class RollCallController {
          private readonly crews = ['ovens', 'counter'];
          constructor(@Inject('BUS') private readonly bus: ClientKafka) {}

          @Get('roll-call')
          call() {
            return this.crews.map((crew) => this.bus.send(crew + '.present', {}));
          }
        }
        """
    files = {"src/main.ts": "import { NestFactory } from '@nestjs/core';\nNestFactory.create(M);\n", "src/roll.ts": code}
    assert _channels(files) == [("publishes", "counter.present"), ("publishes", "ovens.present")]


def test_a_list_of_non_strings_or_an_unknown_list_leaves_the_parameter_a_gap() -> None:
    code = """\
        import { Kafka } from 'kafkajs';
        const consumer = new Kafka({ brokers: ['kafka:9092'] }).consumer({ groupId: 'mill' });
        export async function start(topics: string[]) {
          topics.forEach((topic) => consumer.subscribe({ topic }));
          [1, 2].forEach((n) => consumer.subscribe({ topic: 'batch-' + n }));
        }
        """
    assert _channels({"src/mill.ts": code}) == [("consumes", "batch-{?n}"), ("consumes", "{?topic}")]


def test_a_for_of_loop_over_a_constant_list_subscribes_to_each_topic() -> None:
    code = """\
        import { Kafka } from 'kafkajs';
        const TOPICS = ['kiln.lit', 'kiln.cooled'];
        const consumer = new Kafka({ brokers: ['kafka:9092'] }).consumer({ groupId: 'kiln' });
        export async function start() {
          for (const topic of TOPICS) {
            await consumer.subscribe({ topic, fromBeginning: true });
          }
        }
        """
    assert _channels({"src/kiln.ts": code}) == [("consumes", "kiln.cooled"), ("consumes", "kiln.lit")]


def test_a_for_of_loop_whose_body_declares_a_function_or_reads_an_unknown_list_is_visited_once() -> None:
    code = """\
        import { Kafka } from 'kafkajs';
        const consumer = new Kafka({ brokers: ['kafka:9092'] }).consumer({ groupId: 'kiln' });
        export async function start(topics: string[]) {
          for (const topic of topics) await consumer.subscribe({ topic });
          for (const t of ['a', 'b']) {
            const onDone = () => consumer.subscribe({ topic: t });
            onDone();
          }
        }
        """
    assert _channels({"src/kiln.ts": code}) == [("consumes", "{?topic}"), ("consumes", "{?t}")]
