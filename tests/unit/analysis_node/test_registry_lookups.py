"""A service registry object read by key: `URLS["orders"]` is that key, and a lookup helper
(`const serviceUrl = (name) => registry[name]`) called with a literal name is that entry; a name
only known at run time, or one the registry does not hold, stays one unknown part."""

from __future__ import annotations

from .support import analyze, url

REGISTRY_TS = """\
    const registry: Record<string, string> = {
      catalog: process.env.CATALOG_URL || 'http://catalog:8080',
      'cart-api': process.env.CART_URL ?? 'http://cart:8081',
    };
    export function serviceUrl(name: string): string {
      return registry[name];
    }
    export const apiOf = (name: string) => `${registry[name]}/api`;
    """

CALLER_TS = """\
    import axios from 'axios';
    import { serviceUrl, apiOf } from './registry';
    export const listProducts = () => axios.get(`${serviceUrl('catalog')}/products`);
    export const addToCart = (p: unknown) => axios.post(serviceUrl('cart-api') + '/items', p);
    export const prices = () => fetch(apiOf("catalog") + '/prices');
    """


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None]]:
    return sorted((c.method, url(c.url)) for c in analyze(files).calls)


def test_an_imported_lookup_called_with_a_literal_name_is_that_registry_entry() -> None:
    assert _calls({"src/registry.ts": REGISTRY_TS, "src/api.ts": CALLER_TS}) == [
        ("GET", "${CATALOG_URL:http://catalog:8080}/api/prices"),
        ("GET", "${CATALOG_URL:http://catalog:8080}/products"),
        ("POST", "${CART_URL:http://cart:8081}/items"),
    ]


def test_a_local_commonjs_lookup_and_a_literal_key_of_a_module_object() -> None:
    files = {
        "lib/hosts.js": """\
            const HOSTS = { ledger: process.env.LEDGER_HOST, mail: 'http://mailer:25' }
            function hostFor(service) { return HOSTS[service] }
            module.exports = { HOSTS, hostFor }
            """,
        "lib/pay.js": """\
            const axios = require('axios')
            const { HOSTS, hostFor } = require('./hosts')
            exports.settle = (id) => axios.post(hostFor('ledger') + '/entries/' + id)
            exports.mail = () => axios.post(`${HOSTS["mail"]}/send`)
            """,
    }
    assert _calls(files) == [
        ("POST", "${LEDGER_HOST}/entries/{?id}"),
        ("POST", "http://mailer:25/send"),
    ]


def test_a_name_known_only_at_run_time_or_missing_from_the_registry_stays_one_gap() -> None:
    files = {
        "src/registry.ts": REGISTRY_TS,
        "src/proxy.ts": """\
            import axios from 'axios';
            import { serviceUrl } from './registry';
            export const forward = (target: string, path: string) => axios.get(serviceUrl(target) + path);
            export const missing = () => axios.get(`${serviceUrl('billing')}/invoices`);
            """,
    }
    assert _calls(files) == [
        ("GET", "{?registry.billing}/invoices"),
        ("GET", "{?registry[name]}{?path}"),
    ]


def test_a_third_party_host_beside_a_registry_stays_a_literal_external_url() -> None:
    files = {
        "src/registry.ts": REGISTRY_TS,
        "src/pay.ts": """\
            import axios from 'axios';
            import { serviceUrl } from './registry';
            const VENDORS = { stripe: 'https://api.stripe.com' };
            export const charge = () => axios.post(`${VENDORS['stripe']}/v1/charges`);
            export const stock = () => axios.get(serviceUrl('catalog') + '/stock');
            """,
    }
    assert _calls(files) == [
        ("GET", "${CATALOG_URL:http://catalog:8080}/stock"),
        ("POST", "https://api.stripe.com/v1/charges"),
    ]
