"""A Nest controller no `@Module()` registers is never mounted: the scaffold's `AppController` left
behind when the app's modules register their own controllers serves nothing."""

from __future__ import annotations

from .support import analyze

MAIN = "import { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\nNestFactory.create(AppModule).then((a) => a.listen(3000));\n"
LEFT_BEHIND = """\
    import { Controller, Get } from '@nestjs/common';
    @Controller()
    export class AppController {
      @Get()
      hello() { return 'hi'; }
    }
    """
PARCELS = """\
    import { Controller, Get, Post } from '@nestjs/common';
    @Controller('parcels')
    export class ParcelsController {
      @Get(':id')
      one() { return {}; }
      @Post()
      add() { return {}; }
    }
    """
PARCELS_MODULE = """\
    import { Module } from '@nestjs/common';
    import { ParcelsController } from './parcels.controller';
    @Module({ controllers: [ParcelsController] })
    export class ParcelsModule {}
    """


def _routes(files: dict[str, str]) -> list[tuple[str, str]]:
    return sorted((a.method, a.path) for a in analyze(files).apis)


def test_a_controller_no_module_registers_is_not_served() -> None:
    files = {
        "src/main.ts": MAIN,
        "src/app.controller.ts": LEFT_BEHIND,
        "src/app.module.ts": """\
            import { Module } from '@nestjs/common';
            import { ParcelsModule } from './parcels/parcels.module';
            @Module({ imports: [ParcelsModule] })
            export class AppModule {}
            """,
        "src/parcels/parcels.controller.ts": PARCELS,
        "src/parcels/parcels.module.ts": PARCELS_MODULE,
    }
    assert _routes(files) == [("GET", "/parcels/:id"), ("POST", "/parcels")]


def test_a_registered_scaffold_controller_is_served() -> None:
    files = {
        "src/main.ts": MAIN,
        "src/app.controller.ts": LEFT_BEHIND,
        "src/app.module.ts": """\
            import { Module } from '@nestjs/common';
            import { AppController } from './app.controller';
            import { ParcelsModule } from './parcels/parcels.module';
            @Module({ imports: [ParcelsModule], controllers: [AppController] })
            export class AppModule {}
            """,
        "src/parcels/parcels.controller.ts": PARCELS,
        "src/parcels/parcels.module.ts": PARCELS_MODULE,
    }
    assert _routes(files) == [("GET", "/"), ("GET", "/parcels/:id"), ("POST", "/parcels")]


def test_negative_a_dynamic_module_or_a_list_not_written_out_keeps_every_controller() -> None:
    dynamic = {
        "src/main.ts": MAIN,
        "src/app.controller.ts": LEFT_BEHIND,
        "src/app.module.ts": """\
            import { Module, DynamicModule } from '@nestjs/common';
            import { AppController } from './app.controller';
            import { ParcelsModule } from './parcels/parcels.module';
            @Module({ imports: [ParcelsModule] })
            export class AppModule {
              static forRoot(): DynamicModule {
                return { module: AppModule, controllers: [AppController] };
              }
            }
            """,
        "src/parcels/parcels.controller.ts": PARCELS,
        "src/parcels/parcels.module.ts": PARCELS_MODULE,
    }
    spread = {
        **dynamic,
        "src/app.module.ts": """\
            import { Module } from '@nestjs/common';
            import { ParcelsModule } from './parcels/parcels.module';
            import { CONTROLLERS } from './controllers';
            @Module({ imports: [ParcelsModule], controllers: CONTROLLERS })
            export class AppModule {}
            """,
    }
    expected = [("GET", "/"), ("GET", "/parcels/:id"), ("POST", "/parcels")]
    assert _routes(dynamic) == expected
    assert _routes(spread) == expected


def test_negative_when_no_module_lists_a_controller_every_controller_stays() -> None:
    files = {
        "src/main.ts": MAIN,
        "src/app.controller.ts": LEFT_BEHIND,
        "src/app.module.ts": "import { Module } from '@nestjs/common';\n@Module({})\nexport class AppModule {}\n",
    }
    assert _routes(files) == [("GET", "/")]
