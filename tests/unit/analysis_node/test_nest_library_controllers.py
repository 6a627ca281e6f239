"""Nest routes that are easy to miss: `@Sse()` streams (a GET), and the controllers a shared library
module registers (`HealthModule.register()` in `libs/`) in every app that imports the module."""

from __future__ import annotations

import textwrap

from orbitkb.analysis.facts import LinkedFacts, ServiceContext
from orbitkb.analysis.node import ANALYZER

from .support import analyze

MAIN = "import { NestFactory } from '@nestjs/core';\nNestFactory.create(AppModule).then((a) => a.listen(3000));\n"


def test_a_server_sent_event_stream_is_a_get_route() -> None:
    facts = analyze(
        {
            "src/main.ts": MAIN,
            "src/kiln.controller.ts": """\
                import { Controller, Param, Sse, Get } from '@nestjs/common';

                @Controller('kilns')
                export class KilnController {
                  @Sse(':kilnId/temperature')
                  temperature(@Param('kilnId') kilnId: string) { return null; }

                  @Get()
                  list() { return []; }
                }
                """,
        }
    )
    assert sorted((a.method, a.path) for a in facts.apis) == [
        ("GET", "/kilns"),
        ("GET", "/kilns/:kilnId/temperature"),
    ]


LIB = {
    "libs/probe/src/index.ts": "export * from './probe.module';\nexport * from './unused.controller';\n",
    "libs/probe/src/probe.module.ts": """\
        import { DynamicModule, Module } from '@nestjs/common';
        import { ProbeController } from './probe.controller';
        import { PROBE_PATH } from './probe.constants';

        @Module({})
        export class ProbeModule {
          static register(app: string): DynamicModule {
            return { module: ProbeModule, controllers: [ProbeController] };
          }
        }
        """,
    "libs/probe/src/probe.constants.ts": "export const PROBE_PATH = 'probe';\n",
    "libs/probe/src/probe.controller.ts": """\
        import { Controller, Get } from '@nestjs/common';

        @Controller()
        export class ProbeController {
          @Get('probe')
          probe() { return 'ok'; }
        }
        """,
    "libs/probe/src/unused.controller.ts": """\
        import { Controller, Get } from '@nestjs/common';

        @Controller('never')
        export class UnusedController {
          @Get()
          never() { return 'no'; }
        }
        """,
}


def _link(app: dict[str, str], root: str) -> LinkedFacts:
    files = {**app, **LIB}
    parsed = {p: ANALYZER.parse(p, textwrap.dedent(t)) for p, t in files.items()}
    ctx = ServiceContext("svc", root, "node-ts", "repo", context_files=tuple(sorted(LIB)))
    return ANALYZER.link(ctx, parsed)


def test_a_library_module_the_app_imports_serves_the_controller_it_registers() -> None:
    facts = _link(
        {
            "apps/glaze/src/main.ts": MAIN,
            "apps/glaze/src/app.module.ts": """\
                import { Module } from '@nestjs/common';
                import { ProbeModule } from '@app/probe';

                @Module({ imports: [ProbeModule.register('glaze')] })
                export class AppModule {}
                """,
        },
        "apps/glaze",
    )
    assert sorted((a.method, a.path, a.file) for a in facts.apis) == [
        ("GET", "/probe", "libs/probe/src/probe.controller.ts")
    ]


def test_an_app_that_does_not_import_the_library_module_serves_none_of_its_controllers() -> None:
    facts = _link(
        {
            "apps/clay/src/main.ts": MAIN,
            "apps/clay/src/app.module.ts": """\
                import { Module } from '@nestjs/common';
                import { PROBE_PATH } from '@app/probe/probe.constants';

                @Module({})
                export class AppModule { path = PROBE_PATH; }
                """,
        },
        "apps/clay",
    )
    assert facts.apis == ()
