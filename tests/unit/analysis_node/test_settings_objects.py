"""Base URLs read from a settings object rather than the environment directly: what a Fastify
instance was decorated with (``fastify.decorate("config", {...})``, the @fastify/env plugin's schema)
read as ``fastify.config.ledgerUrl`` / ``app.config.LEDGER_URL`` or handed whole to a client's
constructor, and the object an async getter returns (``(await getConfig()).ledgerUrl``)."""

from __future__ import annotations

from .support import analyze, url

DECORATED = """\
    import fp from 'fastify-plugin';
    export default fp(async (fastify, opts) => {
      const config = { ledgerUrl: process.env.LEDGER_URL || 'http://ledger:7000', mode: 'live' };
      fastify.decorate('config', config);
    }, { name: 'config' });
    """
ENV_PLUGIN = """\
    import fastifyEnv from '@fastify/env';
    const schema = {
      type: 'object',
      required: ['TARIFF_URL'],
      properties: { TARIFF_URL: { type: 'string', default: 'http://tariffs:9100' }, PORT: { type: 'number' } },
    };
    export default async function env(app) { await app.register(fastifyEnv, { confKey: 'settings', schema }); }
    """
GETTER = """\
    export interface AppConfig { ledgerUrl: string }
    export const getConfig = async (): Promise<AppConfig> => ({
      ledgerUrl: process.env.LEDGER_URL || 'http://ledger:7000',
    });
    export async function loadSettings() { return { auditUrl: process.env.AUDIT_URL }; }
    """


def calls(files: dict[str, str]) -> list[tuple[str | None, str | None]]:
    return sorted((c.method, url(c.url)) for c in analyze(files).calls)


def test_a_field_of_what_a_fastify_instance_was_decorated_with_is_read_back():
    routes = """\
        import fetch from 'node-fetch';
        import { FastifyInstance } from 'fastify';
        export default async function routes(server: FastifyInstance) {
          server.post('/pay', async () => fetch(`${server.config.ledgerUrl}/entries`, { method: 'POST' }));
        }
        """
    assert calls({"src/plugins/config.ts": DECORATED, "src/routes/pay.ts": routes}) == [
        ("POST", "${LEDGER_URL:http://ledger:7000}/entries")
    ]


def test_a_decorated_object_literal_and_one_handed_whole_to_a_constructor():
    inline = """\
        export default async function (fastify) { fastify.decorate('urls', { audit: 'http://audit:8200' }); }
        """
    client = """\
        import fp from 'fastify-plugin';
        import fetch from 'node-fetch';
        export default fp(async (fastify, opts) => {
          const config = fastify.config;
          fastify.decorate('ledger', new LedgerService(config));
          fastify.get('/ping', async () => fetch(fastify.urls.audit + '/ping'));
        });
        export class LedgerService {
          private base: string;
          constructor(config: any) { this.base = `${config.ledgerUrl}/api`; }
          post(entry: any) { return fetch(`${this.base}/entries`, { method: 'POST', body: entry }); }
        }
        """
    files = {
        "src/plugins/config.ts": DECORATED,
        "src/plugins/urls.ts": inline,
        "src/plugins/ledger.ts": client,
    }
    assert calls(files) == [
        ("GET", "http://audit:8200/ping"),
        ("POST", "${LEDGER_URL:http://ledger:7000}/api/entries"),
    ]


def test_the_env_plugin_schema_gives_each_property_its_variable_and_default():
    routes = """\
        import fetch from 'node-fetch';
        export async function rates(app) { return fetch(app.settings.TARIFF_URL + '/rates'); }
        """
    assert calls({"src/plugins/env.ts": ENV_PLUGIN, "src/rates.ts": routes}) == [
        ("GET", "${TARIFF_URL:http://tariffs:9100}/rates")
    ]


def test_a_field_of_the_object_an_async_getter_returns():
    use = """\
        import fetch from 'node-fetch';
        import { getConfig, loadSettings } from './config';
        export async function pay() {
          const config = await getConfig();
          return fetch(config.ledgerUrl + '/entries', { method: 'POST' });
        }
        export async function refund() { return fetch(`${(await getConfig()).ledgerUrl}/refunds`); }
        export async function audit() { return fetch((await loadSettings()).auditUrl + '/trail'); }
        """
    assert calls({"src/config.ts": GETTER, "src/use.ts": use}) == [
        ("GET", "${AUDIT_URL}/trail"),
        ("GET", "${LEDGER_URL:http://ledger:7000}/refunds"),
        ("POST", "${LEDGER_URL:http://ledger:7000}/entries"),
    ]


def test_undecorated_names_and_other_receivers_stay_readable_gaps():
    routes = """\
        import fetch from 'node-fetch';
        export async function a(app) { return fetch(app.config.MISSING_URL + '/x'); }
        export async function b(request) { return fetch(request.config.ledgerUrl + '/y'); }
        export async function c() { return fetch((await fetch('/cfg')).url + '/z'); }
        """
    assert calls({"src/plugins/config.ts": DECORATED, "src/r.ts": routes}) == [
        ("GET", "/cfg"),
        ("GET", "{?(await fetch('/cfg')).url}/z"),
        ("GET", "{?app.config.MISSING_URL}/x"),
        ("GET", "{?request.config.ledgerUrl}/y"),
    ]


def test_a_memoised_getter_and_a_function_returning_its_own_object():
    config = """\
        let cache: any | undefined;
        export const getConfig = async () => {
          if (cache) { return cache; }
          cache = { ledger: { retries: 3 }, ledgerUrl: process.env.LEDGER_URL || 'http://ledger:7000' } as any;
          return cache;
        };
        export function urls() { const own = { auditUrl: 'http://audit:8200' }; return own; }
        """
    use = """\
        import fetch from 'node-fetch';
        import { getConfig, urls } from './config';
        export async function pay() {
          const config = await getConfig();
          return fetch(config.ledgerUrl + '/entries', { method: 'POST' });
        }
        export async function trail() { return fetch(urls().auditUrl + '/trail'); }
        """
    assert calls({"src/config.ts": config, "src/use.ts": use}) == [
        ("GET", "http://audit:8200/trail"),
        ("POST", "${LEDGER_URL:http://ledger:7000}/entries"),
    ]


def test_a_constructor_argument_handed_to_the_class_own_request_helper():
    client = """\
        import fetch from 'node-fetch';
        export class Ledger {
          private base: string;
          constructor(options: any) { this.base = `${options.url}/api`; }
          entries() { return this.send(`${this.base}/entries`, { method: 'POST' }); }
          private async send(u: string, init: any) { const r = await fetch(u, init); return r.json(); }
        }
        """
    one = """\
        import { Ledger } from './ledger';
        export const ledger = new Ledger({ url: process.env.LEDGER_URL });
        """
    two = """\
        import { Ledger } from './ledger';
        export const other = new Ledger({ url: 'http://ledger-b:7000' });
        """
    assert calls({"src/ledger.ts": client, "src/one.ts": one}) == [("POST", "${LEDGER_URL}/api/entries")]
    # places making the class with different addresses: the helper's argument stays as written
    assert calls({"src/ledger.ts": client, "src/one.ts": one, "src/two.ts": two}) == [
        ("POST", "{?options.url}/api/entries")
    ]
