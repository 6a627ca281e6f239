"""Configuration the code needs (a NestJS RMQ client queue read from ConfigService / process.env)
is checked against the service's configuration: a key defined nowhere is a config_error gap."""

from __future__ import annotations

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Env, Expr, Lit, ParseGap, Prop
from orbitkb.analysis.node import ANALYZER
from orbitkb.analysis.resolution.configrefs import check, config_ref

MODULE = """\
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClientsModule, Transport } from '@nestjs/microservices';

@Module({
  imports: [
    ClientsModule.registerAsync([
      {
        name: 'AUTH',
        useFactory: (configService: ConfigService) => ({
          transport: Transport.RMQ,
          options: { urls: [configService.get('RABBIT_MQ_URI')], queue: configService.get('RABBIT_MQ_AUTH_QUEUE') },
        }),
        inject: [ConfigService],
      },
      {
        name: 'BILLING',
        useFactory: (configService: ConfigService) => ({
          transport: Transport.RMQ,
          options: { queue: configService.get<string>('RABBIT_MQ_BILLING_QUEUE') },
        }),
        inject: [ConfigService],
      },
      {
        name: 'MAILS',
        useFactory: (configService: ConfigService) => ({
          transport: Transport.RMQ,
          options: { queue: configService.get<string>('RABBIT_MQ_MAILS_QUEUE') },
        }),
        inject: [ConfigService],
      },
    ]),
  ],
})
export class OrdersModule {}
"""

MAIN = """\
import { NestFactory } from '@nestjs/core';
import { OrdersModule } from './orders.module';

async function bootstrap() {
  const app = await NestFactory.create(OrdersModule);
  await app.listen(3000);
}
bootstrap();
"""


def test_only_keys_defined_nowhere_become_config_errors(analyze):
    files = {
        "docker-compose.yml": (
            "services:\n  orders:\n    build: ./apps/orders\n    env_file: ./apps/orders/.env\n"
            "    environment:\n      RABBIT_MQ_AUTH_QUEUE: auth\n"
        ),
        "apps/orders/.env": "RABBIT_MQ_URI=amqp://rabbitmq:5672\nRABBIT_MQ_BILLING_QUEUE=billing\n",
        "apps/orders/package.json": '{"name": "orders", "scripts": {"start": "node dist/main.js"}}',
        "apps/orders/src/main.ts": MAIN,
        "apps/orders/src/orders.module.ts": MODULE,
    }
    run = analyze(files, stubs=[ANALYZER])
    assert run.names() == ["orders"]
    errors = [(g.path, g.reason) for g in run.result.gaps if g.kind == "config_error"]
    assert errors == [
        (
            "apps/orders/src/orders.module.ts",
            "RMQ queue of NestJS client MAILS (line 28) reads RABBIT_MQ_MAILS_QUEUE, which no configuration"
            " of the service defines (compose, Kubernetes, helm, .env, properties): it resolves to nothing",
        )
    ]
    assert not [g for g in run.result.gaps if g.kind == "config_ref"]  # internal: never reported as is


def _config(**env: str) -> ServiceConfig:
    config = ServiceConfig()
    for key, value in env.items():
        config.add_env(ConfigValue(key, value, "docker-compose.yml", 3, "compose"))
    return config


def test_check_handles_defaults_properties_and_bad_payloads():
    ref = config_ref("a.ts", 4, "queue of X", Expr((Env("PREFIX"), Lit("-q"), Prop("queues.x"))))
    gap = check("repo", ref, _config())
    assert gap is not None and gap.kind == "config_error" and "PREFIX, queues.x" in gap.reason
    assert check("repo", ref, _config(PREFIX="dev", QUEUES_X="x")) is None  # relaxed binding of the property
    assert check("repo", config_ref("a.ts", 1, "q", Expr((Env("Q", "default"),))), _config()) is None
    assert check("repo", ParseGap("a.ts", "config_ref", "not json"), _config()) is None
    assert check("repo", ParseGap("a.ts", "config_ref", '{"what": "q"}'), _config()) is None
