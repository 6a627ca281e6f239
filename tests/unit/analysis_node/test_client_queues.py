"""NestJS ClientsModule: transports and RMQ queues of register / registerAsync (useFactory), the
queue read from configuration reported for checking, each message on its pattern and its RMQ queue."""

from __future__ import annotations

import json

from .support import analyze, url

CLIENTS = {
    "src/constants.ts": """\
        export const AUTH_SERVICE = 'AUTH_SERVICE';
        export const QUEUES = { notify: process.env.NOTIFY_QUEUE };
        """,
    "src/app.module.ts": """\
        import { Module } from '@nestjs/common';
        import { ConfigModule, ConfigService } from '@nestjs/config';
        import { ClientsModule, Transport } from '@nestjs/microservices';
        import { AUTH_SERVICE, QUEUES } from './constants';

        @Module({
          imports: [
            ClientsModule.register([
              { name: 'USER_SERVICE', transport: Transport.RMQ, options: { urls: ['amqp://rabbit'], queue: 'user_queue' } },
              { name: 'NOTIFY', transport: Transport.RMQ, options: { queue: QUEUES.notify } },
            ]),
            ClientsModule.registerAsync([
              {
                name: AUTH_SERVICE,
                imports: [ConfigModule],
                useFactory: (configService: ConfigService) => ({
                  transport: Transport.RMQ,
                  options: {
                    urls: [configService.get<string>('RABBIT_MQ_URI')],
                    queue: configService.get<string>('RABBIT_MQ_AUTH_QUEUE'),
                  },
                }),
                inject: [ConfigService],
              },
            ]),
          ],
        })
        export class AppModule {}
        """,
    "src/billing.module.ts": """\
        import { Module } from '@nestjs/common';
        import { ConfigService } from '@nestjs/config';
        import { ClientsModule, Transport } from '@nestjs/microservices';

        @Module({
          imports: [
            ClientsModule.registerAsync({
              isGlobal: true,
              clients: [
                {
                  name: 'BILLING',
                  useFactory: async (config: ConfigService) => {
                    const urls = [config.get('AMQP_URL')];
                    return { transport: Transport.RMQ, options: { urls, queue: config.get('BILLING_QUEUE', 'billing') } };
                  },
                  inject: [ConfigService],
                },
              ],
            }),
          ],
        })
        export class BillingModule {}
        """,
    "src/users.service.ts": """\
        import { Inject, Injectable } from '@nestjs/common';
        import { ClientProxy } from '@nestjs/microservices';
        import { AUTH_SERVICE } from './constants';

        @Injectable()
        export class UsersService {
          constructor(
            @Inject(AUTH_SERVICE) private readonly auth: ClientProxy,
            @Inject('BILLING') private readonly billing: ClientProxy,
          ) {}

          check(token: string) {
            return this.auth.send({ cmd: 'validate_user' }, { token });
          }

          charge() {
            this.billing.emit('invoice_requested', {});
          }
        }
        """,
}


def test_client_queues_from_configuration_are_reported_for_checking() -> None:
    facts = analyze(CLIENTS)
    refs = [(g.file, json.loads(g.reason)) for g in facts.gaps if g.kind == "config_ref"]
    assert [(f, r["what"], r["line"], r["value"]) for f, r in refs] == [
        ("src/app.module.ts", "RMQ queue of NestJS client NOTIFY", 10, [["env", "NOTIFY_QUEUE", None]]),
        (
            "src/app.module.ts",
            "RMQ queue of NestJS client AUTH_SERVICE",
            20,
            [["env", "RABBIT_MQ_AUTH_QUEUE", None]],
        ),
        (
            "src/billing.module.ts",
            "RMQ queue of NestJS client BILLING",
            14,
            [["env", "BILLING_QUEUE", "billing"]],
        ),
    ]  # the literal user_queue needs no check


def test_client_messages_keep_the_pattern_as_channel_and_go_into_their_rmq_queue() -> None:
    facts = analyze(CLIENTS)
    got = sorted((url(m.channel), m.provider, m.client, m.api_handler) for m in facts.messages)
    assert got == [
        ("${BILLING_QUEUE:billing}", "rabbitmq", "nestjs-rmq", None),
        ("${RABBIT_MQ_AUTH_QUEUE}", "rabbitmq", "nestjs-rmq", None),
        ("invoice_requested", "rabbitmq", "nestjs-emit", None),
        ('{"cmd":"validate_user"}', "rabbitmq", "nestjs-send", None),
    ]


MIXED = {
    "src/tokens.ts": """\
        export const Services = { EVENTS: 'events-client' };
        export const MAILER = 'mailer-client';
        """,
    "src/app.module.ts": """\
        import { ClientsModule, Transport } from '@nestjs/microservices';
        import { MAILER, Services } from './tokens';

        export const clients = ClientsModule.register([
          { name: Services.EVENTS, transport: Transport.KAFKA, options: { client: { brokers: ['kafka:9092'] } } },
          { name: MAILER, transport: Transport.RMQ, options: { queue: `${process.env.ENV_PREFIX}-mails` } },
        ]);
        """,
    "src/orders.service.ts": """\
        import { Inject } from '@nestjs/common';
        import { ClientKafka, ClientProxy } from '@nestjs/microservices';
        import { MAILER } from './tokens';

        export class OrdersService {
          constructor(
            @Inject('events-client') private readonly events: ClientKafka,
            @Inject(MAILER) private readonly mailer: ClientProxy,
          ) {}

          placed() {
            this.events.emit('order.placed', {});
            this.mailer.emit('send_receipt', {});
          }
        }
        """,
}


def test_client_tokens_from_constants_pick_their_own_transport() -> None:
    facts = analyze(MIXED)
    assert sorted((url(m.channel), m.provider) for m in facts.messages) == [
        ("${ENV_PREFIX}-mails", "rabbitmq"),  # the RMQ client's queue; the Kafka client has none
        ("order.placed", "kafka"),
        ("send_receipt", "rabbitmq"),
    ]
    refs = [json.loads(g.reason) for g in facts.gaps if g.kind == "config_ref"]
    assert [(r["what"], r["value"]) for r in refs] == [
        ("RMQ queue of NestJS client mailer-client", [["env", "ENV_PREFIX", None], ["lit", "-mails"]])
    ]
