"""TypeScript namespaces as contracts: `namespace ParcelShipped { export const topic = "..." }`,
read as `ParcelShipped.topic` in the module itself and in every module that imports it, and helpers
of the namespace (`GetParcel.urlFor(id)`) that read its members unqualified."""

from __future__ import annotations

from .support import analyze, url

CONTRACTS = {
    "src/contracts/parcel-shipped.ts": """\
        export namespace ParcelShipped {
          export const topic = "parcels.shipped.v1";
          export class Payload { parcelId: string; }
        }
        """,
    "src/contracts/get-parcel.ts": """\
        export namespace GetParcel {
          export const base = (process.env.DEPOT_URL || "http://depot:7000") + "/parcels";
          export function urlFor(id: string): string {
            return `${base}/${id}`;
          }
        }
        """,
    "src/contracts/index.ts": """\
        export * from './parcel-shipped';
        export * from './get-parcel';
        """,
}


def test_an_imported_namespace_constant_names_the_kafka_topic_of_a_nest_handler_and_an_emit() -> None:
    facts = analyze(
        {
            **CONTRACTS,
            "src/main.ts": "import { NestFactory } from '@nestjs/core';\nNestFactory.create(AppModule);\n",
            "src/parcels.controller.ts": """\
                import { Controller, Inject } from '@nestjs/common';
                import { ClientKafka, EventPattern } from '@nestjs/microservices';
                import { ParcelShipped } from './contracts';

                @Controller()
                export class ParcelsController {
                  constructor(@Inject('BUS') private readonly bus: ClientKafka) {}

                  @EventPattern(ParcelShipped.topic)
                  onShipped(data: ParcelShipped.Payload) {
                    this.bus.emit(ParcelShipped.topic + ".audit", data);
                  }
                }
                """,
        }
    )
    assert sorted((m.direction, url(m.channel)) for m in facts.messages) == [
        ("consumes", "parcels.shipped.v1"),
        ("publishes", "parcels.shipped.v1.audit"),
    ]


def test_a_namespace_helper_reads_its_sibling_member_unqualified_for_an_http_call() -> None:
    facts = analyze(
        {
            **CONTRACTS,
            "src/depot.client.ts": """\
                import axios from 'axios';
                import { GetParcel } from './contracts/get-parcel';

                export async function fetchParcel(id: string) {
                  return axios.get(GetParcel.urlFor(id));
                }
                """,
        }
    )
    assert [url(c.url) for c in facts.calls] == ["${DEPOT_URL:http://depot:7000}/parcels/{?id}"]


def test_a_plain_namespace_in_the_same_module_and_a_nested_one() -> None:
    facts = analyze(
        {
            "src/worker.ts": """\
                import { Kafka } from 'kafkajs';

                namespace Topics {
                  export const refunds = "billing.refunds";
                  export namespace Dead {
                    export const letters = "billing.dead-letters";
                  }
                }

                const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();
                export async function refund() {
                  await producer.send({ topic: Topics.refunds, messages: [] });
                  await producer.send({ topic: Topics.Dead.letters, messages: [] });
                }
                """,
        }
    )
    assert sorted(url(m.channel) for m in facts.messages) == ["billing.dead-letters", "billing.refunds"]


def test_a_namespace_member_does_not_shadow_a_module_binding_of_the_same_name() -> None:
    facts = analyze(
        {
            "src/mail.ts": """\
                import { Kafka } from 'kafkajs';

                const topic = "mail.outbox";
                namespace Receipts {
                  export const topic = "mail.receipts";
                }

                const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();
                export async function send() {
                  await producer.send({ topic, messages: [] });
                  await producer.send({ topic: Receipts.topic, messages: [] });
                }
                """,
        }
    )
    assert sorted(url(m.channel) for m in facts.messages) == ["mail.outbox", "mail.receipts"]


def test_an_unknown_namespace_member_stays_a_gap_not_a_channel_name() -> None:
    facts = analyze(
        {
            **CONTRACTS,
            "src/ship.ts": """\
                import { Kafka } from 'kafkajs';
                import { ParcelShipped } from './contracts';

                const producer = new Kafka({ brokers: ['kafka:9092'] }).producer();
                export async function ship() {
                  await producer.send({ topic: ParcelShipped.missing, messages: [] });
                }
                """,
        }
    )
    assert [url(m.channel) for m in facts.messages] == ["{?ParcelShipped.missing}"]
