"""Nest `HttpModule.register(Async)` base URLs in front of HttpService requests that name no host."""

from __future__ import annotations

from .support import analyze, url

CLIENT = """\
    import { Injectable } from '@nestjs/common';
    import { HttpService } from '@nestjs/axios';
    import { firstValueFrom } from 'rxjs';

    @Injectable()
    export class LedgerClient {
      constructor(private readonly http: HttpService) {}

      async balance(account: string) {
        const res = await firstValueFrom(this.http.get(`/balances/${account}`));
        return res.data;
      }

      async audit() {
        return firstValueFrom(this.http.post('http://auditor:7100/entries', {}));
      }
    }
    """


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None]]:
    return sorted((c.method, url(c.url)) for c in analyze(files).calls)


def test_register_with_a_literal_base() -> None:
    files = {
        "src/ledger.client.ts": CLIENT,
        "src/ledger.module.ts": """\
            import { Module } from '@nestjs/common';
            import { HttpModule } from '@nestjs/axios';
            import { LedgerClient } from './ledger.client';

            @Module({ imports: [HttpModule.register({ timeout: 2000, baseURL: 'http://ledger:6200' })], providers: [LedgerClient] })
            export class LedgerModule {}
            """,
    }
    assert _calls(files) == [
        ("GET", "http://ledger:6200/balances/{?account}"),
        ("POST", "http://auditor:7100/entries"),
    ]


def test_register_async_with_a_factory_reading_config() -> None:
    files = {
        "src/ledger.client.ts": CLIENT,
        "src/ledger.module.ts": """\
            import { Module } from '@nestjs/common';
            import { HttpModule } from '@nestjs/axios';
            import { ConfigModule, ConfigService } from '@nestjs/config';

            @Module({
              imports: [
                HttpModule.registerAsync({
                  imports: [ConfigModule],
                  inject: [ConfigService],
                  useFactory: async (cfg: ConfigService) => {
                    const timeout = 1500;
                    return { timeout, baseURL: cfg.get<string>('LEDGER_URL') ?? 'http://ledger:6200/' };
                  },
                }),
              ],
            })
            export class LedgerModule {}
            """,
    }
    assert _calls(files) == [
        ("GET", "${LEDGER_URL:http://ledger:6200/}balances/{?account}"),
        ("POST", "http://auditor:7100/entries"),
    ]


def test_two_different_bases_leave_paths_alone() -> None:
    module = """\
        import { Module } from '@nestjs/common';
        import { HttpModule } from '@nestjs/axios';
        @Module({ imports: [HttpModule.register({ baseURL: 'BASE' })] })
        export class NAME {}
        """
    files = {
        "src/ledger.client.ts": CLIENT,
        "src/a.module.ts": module.replace("BASE", "http://ledger:6200").replace("NAME", "AModule"),
        "src/b.module.ts": module.replace("BASE", "http://vault:6300").replace("NAME", "BModule"),
    }
    assert _calls(files) == [("GET", "/balances/{?account}"), ("POST", "http://auditor:7100/entries")]


def test_a_module_without_a_base_and_other_clients_are_untouched() -> None:
    files = {
        "src/ledger.client.ts": CLIENT,
        "src/ledger.module.ts": """\
            import { Module } from '@nestjs/common';
            import { HttpModule } from '@nestjs/axios';
            @Module({ imports: [HttpModule.register({ timeout: 900 })] })
            export class LedgerModule {}
            """,
        "src/plain.ts": """\
            import axios from 'axios';
            export const ping = () => axios.get('/ping');
            """,
    }
    assert _calls(files) == [
        ("GET", "/balances/{?account}"),
        ("GET", "/ping"),
        ("POST", "http://auditor:7100/entries"),
    ]
