"""NestJS `RouterModule.register([...])`: a module's path prefixes the controllers it declares,
children nest under their parent, after the global prefix and the URI version."""

from __future__ import annotations

from .support import analyze

CONTROLLERS = {
    "src/main.ts": """\
        import { NestFactory } from '@nestjs/core';
        import { VersioningType } from '@nestjs/common';
        import { AppModule } from './app.module';
        async function start() {
          const app = await NestFactory.create(AppModule);
          app.setGlobalPrefix('api');
          app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
          await app.listen(3000);
        }
        start();
        """,
    "src/greenhouse/greenhouse.controller.ts": """\
        import { Controller, Get, Post } from '@nestjs/common';
        @Controller('greenhouses')
        export class GreenhouseController {
          @Get() list() { return []; }
          @Post(':id/water') water() { return 'ok'; }
        }
        """,
    "src/greenhouse/greenhouse.module.ts": """\
        import { Module } from '@nestjs/common';
        import { GreenhouseController } from './greenhouse.controller';
        @Module({ controllers: [GreenhouseController] })
        export class GreenhouseModule {}
        """,
    "src/seeds/seeds.controller.ts": """\
        import { Controller, Get } from '@nestjs/common';
        @Controller()
        export class SeedsController {
          @Get('seeds') list() { return []; }
        }
        """,
    "src/seeds/seeds.module.ts": """\
        import { Module } from '@nestjs/common';
        import { SeedsController } from './seeds.controller';
        @Module({ controllers: [SeedsController] })
        export class SeedsModule {}
        """,
    "src/health.controller.ts": """\
        import { Controller, Get } from '@nestjs/common';
        @Controller('health')
        export class HealthController {
          @Get() ok() { return 'up'; }
        }
        """,
}


def _paths(app_module: str) -> list[tuple[str, str]]:
    facts = analyze({**CONTROLLERS, "src/app.module.ts": app_module})
    return sorted((a.method, a.path) for a in facts.apis)


def test_a_router_module_path_prefixes_the_controllers_of_the_module_and_its_children() -> None:
    app_module = """\
        import { Module } from '@nestjs/common';
        import { RouterModule } from '@nestjs/core';
        import { GreenhouseModule } from './greenhouse/greenhouse.module';
        import { SeedsModule } from './seeds/seeds.module';
        import { HealthController } from './health.controller';

        @Module({
          imports: [
            GreenhouseModule,
            SeedsModule,
            RouterModule.register([
              { path: 'nursery', module: GreenhouseModule, children: [{ path: 'stock', module: SeedsModule }] },
            ]),
          ],
          controllers: [HealthController],
        })
        export class AppModule {}
        """
    assert _paths(app_module) == [
        ("GET", "/api/v1/health"),
        ("GET", "/api/v1/nursery/greenhouses"),
        ("GET", "/api/v1/nursery/stock/seeds"),
        ("POST", "/api/v1/nursery/greenhouses/:id/water"),
    ]


def test_routes_kept_in_a_constant_and_a_child_given_as_a_bare_module() -> None:
    app_module = """\
        import { Module } from '@nestjs/common';
        import { RouterModule, Routes } from '@nestjs/core';
        import { GreenhouseModule } from './greenhouse/greenhouse.module';
        import { SeedsModule } from './seeds/seeds.module';

        const routes: Routes = [{ path: 'grow', module: GreenhouseModule, children: [SeedsModule] }];

        @Module({ imports: [GreenhouseModule, SeedsModule, RouterModule.register(routes)] })
        export class AppModule {}
        """
    assert _paths(app_module) == [
        ("GET", "/api/v1/grow/greenhouses"),
        ("GET", "/api/v1/grow/seeds"),
        ("POST", "/api/v1/grow/greenhouses/:id/water"),
    ]  # HealthController: no module of this app registers it, so it is not served


def test_without_a_router_module_the_controllers_keep_their_own_paths() -> None:
    app_module = """\
        import { Module } from '@nestjs/common';
        import { GreenhouseModule } from './greenhouse/greenhouse.module';
        @Module({ imports: [GreenhouseModule] })
        export class AppModule {}
        """
    assert ("GET", "/api/v1/greenhouses") in _paths(app_module)
