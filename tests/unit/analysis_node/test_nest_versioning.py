"""NestJS URI versioning: routes of versioned controllers and handlers are served under `/v<n>` after
the global prefix, the default version applies to the rest, `VERSION_NEUTRAL` opts out; header and
media-type versioning, or versions without `enableVersioning`, leave paths unchanged."""

from __future__ import annotations

import pytest

from .support import analyze

MAIN = """\
    import { NestFactory } from '@nestjs/core';
    import { VersioningType } from '@nestjs/common';
    import { AppModule } from './app.module';

    async function bootstrap() {
      const app = await NestFactory.create(AppModule);
      app.setGlobalPrefix('api');
      app.enableVersioning(OPTIONS);
      await app.listen(3000);
    }
    bootstrap();
    """

KENNELS = """\
    import { Controller, Get, Post, Version, VERSION_NEUTRAL } from '@nestjs/common';
    import { API_V2 } from './versions';

    @Controller({ path: 'kennels', version: '1' })
    export class KennelController {
      @Get()
      list() { return []; }

      @Version(API_V2)
      @Post(':id/dogs')
      admit() { return {}; }
    }

    @Controller({ path: 'walks', version: ['1', '2'] })
    export class WalkController {
      @Get('today')
      today() { return []; }
    }

    @Controller('treats')
    export class TreatController {
      @Get()
      all() { return []; }
    }

    @Controller({ path: 'health', version: VERSION_NEUTRAL })
    export class HealthController {
      @Get()
      ok() { return 'ok'; }
    }
    """

VERSIONS = "export const API_V2 = '2';\n"


def routes(options: str, extra: dict[str, str] | None = None) -> list[tuple[str, str]]:
    files = {
        "src/main.ts": MAIN.replace("OPTIONS", options),
        "src/kennels.controller.ts": KENNELS,
        "src/versions.ts": VERSIONS,
        **(extra or {}),
    }
    return sorted((a.method, a.path) for a in analyze(files).apis if a.kind == "http")


def test_controller_handler_and_array_versions_with_a_global_prefix() -> None:
    assert routes("{ type: VersioningType.URI }") == [
        ("GET", "/api/health"),
        ("GET", "/api/treats"),
        ("GET", "/api/v1/kennels"),
        ("GET", "/api/v1/walks/today"),
        ("GET", "/api/v2/walks/today"),
        ("POST", "/api/v2/kennels/:id/dogs"),
    ]


def test_default_version_and_a_custom_prefix() -> None:
    assert routes("{ type: VersioningType.URI, defaultVersion: '3', prefix: 'ver' }") == [
        ("GET", "/api/health"),  # neutral stays unversioned
        ("GET", "/api/ver1/kennels"),
        ("GET", "/api/ver1/walks/today"),
        ("GET", "/api/ver2/walks/today"),
        ("GET", "/api/ver3/treats"),
        ("POST", "/api/ver2/kennels/:id/dogs"),
    ]


def test_versioning_enabled_in_a_helper_of_another_file() -> None:
    helper = """\
        import { INestApplication, VersioningType } from '@nestjs/common';

        export function setupVersions(app: INestApplication) {
          app.enableVersioning({ type: VersioningType.URI, defaultVersion: '1' });
        }
        """
    main = """\
        import { NestFactory } from '@nestjs/core';
        import { setupVersions } from './setup';
        import { AppModule } from './app.module';

        NestFactory.create(AppModule).then((app) => { setupVersions(app); return app.listen(80); });
        """
    files = {"src/main.ts": main, "src/setup.ts": helper, "src/kennels.controller.ts": KENNELS, "src/versions.ts": VERSIONS}
    paths = sorted(a.path for a in analyze(files).apis if a.kind == "http")
    assert paths == ["/health", "/v1/kennels", "/v1/treats", "/v1/walks/today", "/v2/kennels/:id/dogs", "/v2/walks/today"]


@pytest.mark.parametrize(
    "options",
    ["{ type: VersioningType.HEADER, header: 'X-Api-Version' }", "{ type: VersioningType.MEDIA_TYPE, key: 'v=' }"],
    ids=["header", "media-type"],
)
def test_other_versioning_types_leave_paths_alone(options: str) -> None:
    assert routes(options) == [
        ("GET", "/api/health"),
        ("GET", "/api/kennels"),
        ("GET", "/api/treats"),
        ("GET", "/api/walks/today"),
        ("POST", "/api/kennels/:id/dogs"),
    ]


def test_declared_versions_without_enable_versioning_change_nothing() -> None:
    files = {"src/kennels.controller.ts": KENNELS, "src/versions.ts": VERSIONS}
    assert sorted(a.path for a in analyze(files).apis if a.kind == "http") == [
        "/health", "/kennels", "/kennels/:id/dogs", "/treats", "/walks/today",
    ]  # fmt: skip
