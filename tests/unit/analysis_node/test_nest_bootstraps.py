"""A Nest app started only as a microservice (or an application context) runs no HTTP server: the
`@Get()` handlers of its controllers are not endpoints. A hybrid app (`NestFactory.create` plus
`connectMicroservice`) serves both."""

from __future__ import annotations

import pytest

from .support import analyze

CONTROLLERS = {
    "src/ping.controller.ts": """\
        import { Controller, Get } from '@nestjs/common';

        @Controller()
        export class PingController {
          @Get()
          ping() { return 'pong'; }
        }
        """,
    "src/kettle.controller.ts": """\
        import { Controller } from '@nestjs/common';
        import { MessagePattern, Payload } from '@nestjs/microservices';

        @Controller()
        export class KettleController {
          @MessagePattern({ cmd: 'boil-water' })
          boil(@Payload() litres: number) { return litres; }
        }
        """,
}

MICROSERVICE_ONLY = """\
    import { NestFactory } from '@nestjs/core';
    import { MicroserviceOptions, Transport } from '@nestjs/microservices';
    import { KettleModule } from './kettle.module';

    async function start() {
      const app = await NestFactory.createMicroservice<MicroserviceOptions>(KettleModule, {
        transport: Transport.NATS,
        options: { servers: ['nats://broker:4222'] },
      });
      await app.listen();
    }
    start();
    """

CONTEXT_ONLY = """\
    import { NestFactory } from '@nestjs/core';
    import { WorkerModule } from './worker.module';

    NestFactory.createApplicationContext(WorkerModule).then((ctx) => ctx.init());
    """

HYBRID = """\
    import { NestFactory } from '@nestjs/core';
    import { Transport } from '@nestjs/microservices';
    import { KettleModule } from './kettle.module';

    async function start() {
      const app = await NestFactory.create(KettleModule);
      app.connectMicroservice({ transport: Transport.REDIS, options: { host: 'cache' } });
      await app.startAllMicroservices();
      await app.listen(3000);
    }
    start();
    """

HTTP_ONLY = """\
    const { NestFactory } = require('@nestjs/core');
    const { KettleModule } = require('./kettle.module');

    NestFactory.create(KettleModule).then((app) => app.listen(8080));
    """


def http_routes(main: str | None) -> list[tuple[str, str]]:
    files = dict(CONTROLLERS)
    if main is not None:
        files["src/main.ts"] = main
    facts = analyze(files)
    return sorted((a.method, a.path) for a in facts.apis if a.kind == "http")


@pytest.mark.parametrize("main", [MICROSERVICE_ONLY, CONTEXT_ONLY], ids=["microservice", "application-context"])
def test_an_app_without_an_http_server_serves_no_routes(main: str) -> None:
    assert http_routes(main) == []


@pytest.mark.parametrize("main", [HYBRID, HTTP_ONLY, None], ids=["hybrid", "http", "no-bootstrap-seen"])
def test_an_app_with_an_http_server_or_no_bootstrap_seen_keeps_its_routes(main: str | None) -> None:
    assert http_routes(main) == [("GET", "/")]


def test_the_message_handlers_of_a_microservice_only_app_stay() -> None:
    facts = analyze({**CONTROLLERS, "src/main.ts": MICROSERVICE_ONLY})
    assert [(m.direction, m.provider, m.channel.literal()) for m in facts.messages] == [
        ("consumes", "nats", '{"cmd":"boil-water"}')
    ]
