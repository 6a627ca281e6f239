"""NestJS RabbitMQ queues as channels: a microservice consumes the queue it is opened on, a client
publishes into the queue it is registered with (besides its message patterns), whether the options
are written in place, in a useFactory, read from the environment, or returned by a project's own
helper; NATS queue groups and transports without a queue give no queue channel."""

from __future__ import annotations

import json

from .support import analyze, url


def _messages(files: dict[str, str]) -> list[tuple[str, str | None, str, str, int]]:
    facts = analyze(files)
    return sorted((m.direction, url(m.channel), m.provider, m.file, m.line) for m in facts.messages)


def test_microservice_opened_on_a_written_queue_consumes_it() -> None:
    files = {
        "src/main.ts": """\
            import { NestFactory } from '@nestjs/core';
            import { Transport } from '@nestjs/microservices';
            import { LedgerModule } from './ledger.module';

            async function start() {
              const app = await NestFactory.createMicroservice(LedgerModule, {
                transport: Transport.RMQ,
                options: { urls: ['amqp://broker:5672'], queue: 'ledger_entries', queueOptions: { durable: true } },
              });
              await app.listen();
            }
            start();
            """,
    }
    assert _messages(files) == [("consumes", "ledger_entries", "rabbitmq", "src/main.ts", 6)]


def test_hybrid_app_connected_to_a_queue_from_the_environment_consumes_it() -> None:
    files = {
        "src/main.ts": """\
            import { NestFactory } from '@nestjs/core';
            import { Transport, MicroserviceOptions } from '@nestjs/microservices';
            import { AppModule } from './app.module';

            async function boot() {
              const app = await NestFactory.create(AppModule);
              app.connectMicroservice<MicroserviceOptions>({
                transport: Transport.RMQ,
                options: { urls: [process.env.AMQP_URL], queue: process.env.STOCK_QUEUE ?? 'stock_moves' },
              });
              await app.startAllMicroservices();
              await app.listen(3000);
            }
            boot();
            """,
    }
    assert _messages(files) == [("consumes", "${STOCK_QUEUE:stock_moves}", "rabbitmq", "src/main.ts", 7)]


HELPER = {
    "src/broker/lanes.ts": """\
        export enum Lane {
          SHIPPING = 'shipping_lane',
          INVOICES = 'invoice_lane',
        }
        """,
    "src/broker/broker-options.ts": """\
        import { Injectable } from '@nestjs/common';
        import { RmqOptions, Transport } from '@nestjs/microservices';
        import { Lane } from './lanes';

        @Injectable()
        export class BrokerOptions {
          forLane(lane: Lane): RmqOptions {
            return {
              transport: Transport.RMQ,
              options: { urls: ['amqp://mq'], queue: lane, noAck: false },
            };
          }
        }
        """,
    "src/shipping/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { BrokerOptions } from '../broker/broker-options';
        import { Lane } from '../broker/lanes';
        import { ShippingModule } from './shipping.module';

        async function run() {
          const app = await NestFactory.createMicroservice(ShippingModule, {
            useFactory: (opts: BrokerOptions) => opts.forLane(Lane.SHIPPING),
            inject: [BrokerOptions],
          });
          await app.listen();
        }
        run();
        """,
    "src/shipping/shipping.module.ts": """\
        import { Module } from '@nestjs/common';
        import { ClientProxy, ClientProxyFactory } from '@nestjs/microservices';
        import { BrokerOptions } from '../broker/broker-options';
        import { Lane } from '../broker/lanes';
        import { ShippingService } from './shipping.service';

        export const INVOICE_CLIENT = 'invoice-client';

        @Module({
          providers: [
            ShippingService,
            BrokerOptions,
            {
              provide: INVOICE_CLIENT,
              useFactory: (opts: BrokerOptions): ClientProxy => {
                return ClientProxyFactory.create(opts.forLane(Lane.INVOICES));
              },
              inject: [BrokerOptions],
            },
          ],
        })
        export class ShippingModule {}
        """,
    "src/shipping/shipping.service.ts": """\
        import { Inject, Injectable } from '@nestjs/common';
        import { ClientProxy } from '@nestjs/microservices';
        import { INVOICE_CLIENT } from './shipping.module';

        @Injectable()
        export class ShippingService {
          constructor(@Inject(INVOICE_CLIENT) private readonly invoices: ClientProxy) {}

          shipped(id: string) {
            return this.invoices.emit('parcel_shipped', { id });
          }
        }
        """,
}


def test_options_a_helper_returns_name_the_queue_of_servers_and_provided_clients() -> None:
    assert _messages(HELPER) == [
        ("consumes", "shipping_lane", "rabbitmq", "src/shipping/main.ts", 7),
        ("publishes", "invoice_lane", "rabbitmq", "src/shipping/shipping.service.ts", 10),
        ("publishes", "parcel_shipped", "rabbitmq", "src/shipping/shipping.service.ts", 10),
    ]


def test_clients_made_in_place_or_by_decorator_publish_into_their_queue() -> None:
    files = {
        "src/audit.service.ts": """\
            import { Injectable } from '@nestjs/common';
            import { Client, ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';

            @Injectable()
            export class AuditService {
              @Client({ transport: Transport.RMQ, options: { queue: 'mail_jobs' } })
              private mailer: ClientProxy;
              private trail: ClientProxy;

              constructor() {
                this.trail = ClientProxyFactory.create({ transport: Transport.RMQ, options: { queue: 'audit_trail' } });
              }

              record(entry: unknown) {
                this.trail.emit('entry_recorded', entry);
                this.mailer.send('digest', entry);
              }
            }
            """,
    }
    assert _messages(files) == [
        ("publishes", "audit_trail", "rabbitmq", "src/audit.service.ts", 15),
        ("publishes", "digest", "rabbitmq", "src/audit.service.ts", 16),
        ("publishes", "entry_recorded", "rabbitmq", "src/audit.service.ts", 15),
        ("publishes", "mail_jobs", "rabbitmq", "src/audit.service.ts", 16),
    ]


def test_registered_async_client_through_a_helper_publishes_into_its_queue() -> None:
    files = {
        "src/queues.ts": """\
            export const rmqOptions = (queue: string) => ({
              transport: Transport.RMQ,
              options: { urls: [process.env.RABBIT_URL], queue },
            });
            import { Transport } from '@nestjs/microservices';
            """,
        "src/app.module.ts": """\
            import { Module } from '@nestjs/common';
            import { ClientsModule } from '@nestjs/microservices';
            import { rmqOptions } from './queues';

            @Module({
              imports: [ClientsModule.registerAsync([{ name: 'REVIEWS', useFactory: () => rmqOptions('reviews_in') }])],
            })
            export class AppModule {}
            """,
        "src/reviews.service.ts": """\
            import { Inject } from '@nestjs/common';
            import { ClientProxy } from '@nestjs/microservices';

            export class ReviewsService {
              constructor(@Inject('REVIEWS') private readonly reviews: ClientProxy) {}

              add(text: string) {
                return this.reviews.send({ cmd: 'add_review' }, { text });
              }
            }
            """,
    }
    got = _messages(files)
    assert [row[:3] for row in got] == [
        ("publishes", "reviews_in", "rabbitmq"),
        ("publishes", '{"cmd":"add_review"}', "rabbitmq"),
    ]


def test_nats_queue_groups_kafka_and_queueless_rmq_give_no_queue_channel() -> None:
    files = {
        "src/main.ts": """\
            import { NestFactory } from '@nestjs/core';
            import { Transport } from '@nestjs/microservices';
            import { AppModule } from './app.module';

            const natsOptions = (group: string) => ({ transport: Transport.NATS, options: { queue: group } });

            async function boot() {
              const app = await NestFactory.createMicroservice(AppModule, {
                transport: Transport.NATS,
                options: { servers: ['nats://nats:4222'], queue: 'pricing_workers' },
              });
              app.connectMicroservice(natsOptions('pricing_readers'));
              app.connectMicroservice({ transport: Transport.KAFKA, options: { client: { brokers: ['k:9092'] } } });
              app.connectMicroservice({ transport: Transport.RMQ, options: { urls: ['amqp://mq'] } });
              await app.listen();
            }
            boot();
            """,
    }
    assert _messages(files) == []


SHARED_SERVICE = {
    "src/constants.ts": """\
        export const PAYMENTS = 'PAYMENTS';
        """,
    "src/rmq/rmq.service.ts": """\
        import { Injectable } from '@nestjs/common';
        import { ConfigService } from '@nestjs/config';
        import { RmqOptions, Transport } from '@nestjs/microservices';

        @Injectable()
        export class QueueOptions {
          constructor(private readonly config: ConfigService) {}

          forService(name: string, noAck = false): RmqOptions {
            return {
              transport: Transport.RMQ,
              options: { urls: [this.config.get<string>('AMQP_URI')], queue: this.config.get<string>(`AMQP_${name}_QUEUE`), noAck },
            };
          }
        }
        """,
    "src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { AppModule } from './app.module';
        import { QueueOptions } from './rmq/rmq.service';

        async function boot() {
          const app = await NestFactory.create(AppModule);
          const queues = app.get<QueueOptions>(QueueOptions);
          app.connectMicroservice(queues.forService('STOCK'));
          await app.startAllMicroservices();
        }
        boot();
        """,
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { ConfigService } from '@nestjs/config';
        import { ClientsModule, Transport } from '@nestjs/microservices';
        import { PAYMENTS } from './constants';

        @Module({
          imports: [
            ClientsModule.registerAsync([
              {
                name: PAYMENTS,
                useFactory: (config: ConfigService) => ({
                  transport: Transport.RMQ,
                  options: { urls: [config.get('AMQP_URI')], queue: config.get(`AMQP_${PAYMENTS}_QUEUE`) },
                }),
                inject: [ConfigService],
              },
            ]),
          ],
        })
        export class AppModule {}
        """,
}


def test_a_shared_options_service_from_the_container_and_queue_keys_spelt_by_templates() -> None:
    got = [row[:3] for row in _messages(SHARED_SERVICE)]
    assert got == [("consumes", "${AMQP_STOCK_QUEUE}", "rabbitmq")]
    refs = [g for g in analyze(SHARED_SERVICE).gaps if g.kind == "config_ref"]
    assert [json.loads(g.reason)["value"] for g in refs] == [[["env", "AMQP_PAYMENTS_QUEUE", None]]]


def test_configuration_keys_spelt_by_a_helper_parameter_name_urls_too() -> None:
    files = {
        "src/hosts.ts": """\
            import axios from 'axios';
            import { Injectable } from '@nestjs/common';
            import { ConfigService } from '@nestjs/config';

            @Injectable()
            export class Hosts {
              constructor(private readonly config: ConfigService) {}

              private base(name: string) {
                return this.config.get<string>(`${name}_SERVICE_URL`);
              }

              stock(sku: string) {
                return axios.get(`${this.base('INVENTORY')}/stock/${sku}`);
              }
            }
            """,
    }
    facts = analyze(files)
    assert [url(c.url) for c in facts.calls] == ["${INVENTORY_SERVICE_URL}/stock/{?sku}"]
