"""Client base URLs held by getters, methods, class fields and constructor assignments."""

from __future__ import annotations

from .support import analyze, url

NEST = {
    "src/config.ts": """\
        export const SERVICES = {
          shipping: process.env.SHIPPING_URL ?? 'http://shipping:3000',
        };
        """,
    # A ConfigService getter, the shape NestJS clients use most.
    "src/clients/orders.client.ts": """\
        import { Injectable } from '@nestjs/common';
        import { HttpService } from '@nestjs/axios';
        import { ConfigService } from '@nestjs/config';
        import { firstValueFrom } from 'rxjs';

        @Injectable()
        export class OrdersClient {
          constructor(private readonly http: HttpService, private readonly config: ConfigService) {}

          private get baseUrl(): string {
            return this.config.get<string>('ORDERS_URL');
          }

          async getOrder(id: string) {
            const res = await firstValueFrom(this.http.get(`${this.baseUrl}/orders/${id}`));
            return res.data;
          }
        }
        """,
    # The getter is declared after its use, on a ConfigService field with an unusual name.
    "src/clients/inventory.client.ts": """\
        import { Injectable } from '@nestjs/common';
        import { HttpService } from '@nestjs/axios';
        import { ConfigService } from '@nestjs/config';

        @Injectable()
        export class InventoryClient {
          constructor(private readonly http: HttpService, private readonly env: ConfigService) {}

          async stock(sku: string) {
            return this.http.get(this.inventoryApi + '/stock/' + sku);
          }

          get inventoryApi(): string {
            return this.env.getOrThrow<string>('INVENTORY_URL');
          }
        }
        """,
    # A plain method returning the base.
    "src/clients/payments.client.ts": """\
        import { Injectable } from '@nestjs/common';
        import { HttpService } from '@nestjs/axios';

        @Injectable()
        export class PaymentsClient {
          constructor(private readonly http: HttpService) {}

          private baseUrl(): string {
            return process.env.PAYMENTS_URL ?? 'http://payments:3000';
          }

          charge(body: unknown) {
            return this.http.post(`${this.baseUrl()}/payments`, body);
          }
        }
        """,
    # A constructor assignment from a bare `config` parameter, and a `url(path)` builder.
    "src/clients/catalog.client.ts": """\
        import { Injectable } from '@nestjs/common';
        import { HttpService } from '@nestjs/axios';
        import { ConfigService } from '@nestjs/config';

        @Injectable()
        export class CatalogClient {
          private readonly base: string;

          constructor(config: ConfigService, private readonly http: HttpService) {
            this.base = config.get('CATALOG_URL');
          }

          private url(path: string): string {
            return `${this.base}${path}`;
          }

          item(id: string) {
            return this.http.get(this.url(`/items/${id}`));
          }
        }
        """,
    # Class fields: an imported constant and an env var with a default; a composed assignment.
    "src/clients/shipping.client.ts": """\
        import { Injectable } from '@nestjs/common';
        import { HttpService } from '@nestjs/axios';
        import { ConfigService } from '@nestjs/config';
        import { SERVICES } from '../config';

        @Injectable()
        export class ShippingClient {
          private readonly baseUrl = SERVICES.shipping;
          private readonly taxUrl = process.env.TAX_URL ?? 'http://tax:3000';
          private readonly ratesUrl: string;

          constructor(private readonly http: HttpService, private readonly configService: ConfigService) {
            this.ratesUrl = `${this.configService.get<string>('RATES_HOST')}/api`;
          }

          ship(id: string) {
            return this.http.put(`${this.baseUrl}/shipments/${id}`, {});
          }

          rates() {
            return this.http.get(`${this.ratesUrl}/rates`);
          }

          tax() {
            return this.http.get(`${this.taxUrl}/quotes`);
          }
        }
        """,
}


def test_nest_client_bases_fold_through_getters_methods_fields_and_constructors() -> None:
    facts = analyze(NEST)
    got = sorted((c.file, c.line, c.client, c.method, url(c.url), c.component) for c in facts.calls)
    assert got == [
        (
            "src/clients/catalog.client.ts",
            18,
            "HttpService",
            "GET",
            "${CATALOG_URL}/items/{?id}",
            "CatalogClient",
        ),
        (
            "src/clients/inventory.client.ts",
            10,
            "HttpService",
            "GET",
            "${INVENTORY_URL}/stock/{?sku}",
            "InventoryClient",
        ),
        (
            "src/clients/orders.client.ts",
            15,
            "HttpService",
            "GET",
            "${ORDERS_URL}/orders/{?id}",
            "OrdersClient",
        ),
        (
            "src/clients/payments.client.ts",
            13,
            "HttpService",
            "POST",
            "${PAYMENTS_URL:http://payments:3000}/payments",
            "PaymentsClient",
        ),
        (
            "src/clients/shipping.client.ts",
            17,
            "HttpService",
            "PUT",
            "${SHIPPING_URL:http://shipping:3000}/shipments/{?id}",
            "ShippingClient",
        ),
        (
            "src/clients/shipping.client.ts",
            21,
            "HttpService",
            "GET",
            "${RATES_HOST}/api/rates",
            "ShippingClient",
        ),
        (
            "src/clients/shipping.client.ts",
            25,
            "HttpService",
            "GET",
            "${TAX_URL:http://tax:3000}/quotes",
            "ShippingClient",
        ),
    ]


PLAIN = {
    "src/config.js": """\
        module.exports = { services: { users: process.env.USERS_URL || 'http://users:4000' } };
        """,
    "src/billing.js": """\
        const BILLING = process.env.BILLING_URL;

        function billingUrl(path) {
          return BILLING + path;
        }

        module.exports = { billingUrl };
        """,
    "src/clients.js": """\
        const axios = require('axios');
        const config = require('./config');
        const { billingUrl } = require('./billing');
        const { resolveHost } = require('@acme/discovery');

        const ordersBase = () => process.env.ORDERS_URL || 'http://orders';
        const searchBase = ordersBase() || 'http://unused';

        class UsersApi {
          get base() {
            return config.services.users;
          }

          find(id) {
            return axios.get(`${this.base}/users/${id}`);
          }
        }

        async function listOrders() {
          return fetch(`${ordersBase()}/orders`);
        }

        async function invoice(body) {
          return axios.post(billingUrl('/invoices'), body);
        }

        async function search(q) {
          return fetch(`${searchBase}/search?q=${q}`);
        }

        async function ping() {
          return fetch(`${resolveHost('audit')}/ping`);
        }

        module.exports = { UsersApi, listOrders, invoice, search, ping };
        """,
}


def test_plain_js_bases_from_getters_arrow_functions_and_url_builders() -> None:
    facts = analyze(PLAIN)
    got = sorted((c.line, c.client, c.method, url(c.url)) for c in facts.calls)
    assert got == [
        (15, "axios", "GET", "${USERS_URL:http://users:4000}/users/{?id}"),
        (20, "fetch", "GET", "${ORDERS_URL:http://orders}/orders"),
        (24, "axios", "POST", "${BILLING_URL}/invoices"),
        (28, "fetch", "GET", "${ORDERS_URL:http://orders}/search?q={?q}"),
        # A package's function stays unknown, spelled as written.
        (32, "fetch", "GET", "{?resolveHost('audit')}/ping"),
    ]


RECURSIVE = {
    "src/loop.ts": """\
        import axios from 'axios';

        class Loop {
          get base(): string {
            return this.base;
          }

          twice(p: string): string {
            return p + this.twice(p) + this.twice(p);
          }

          a() {
            return axios.get(`${this.base}/a`);
          }

          b() {
            return axios.get(this.twice('/b'));
          }
        }

        export default Loop;
        """,
}


def test_recursive_getters_and_helpers_end_as_unknown_parts() -> None:
    facts = analyze(RECURSIVE)
    got = sorted((c.line, c.method) for c in facts.calls)
    assert got == [(13, "GET"), (17, "GET")]
    urls = {c.line: url(c.url) for c in facts.calls}
    assert urls == {13: "{?this.base}/a", 17: "/b{?this.twice(p)}{?this.twice(p)}"}


def test_base_then_verb_clients() -> None:
    """`supertest(base).post(path)`: the base URL comes first, the verb and the path after it."""
    files = {
        "src/ledger.js": """\
            const supertest = require('supertest')
            module.exports = (entry) => supertest('http://ledger:4000').post('/entries').send(entry)
            """,
        "src/rates.ts": """\
            import request from 'supertest';
            const RATES = process.env.RATES_URL || 'http://rates:9000';
            export const rate = (code: string) => request(RATES).get(`/rates/${code}`).expect(200);
            """,
        # The app testing itself in process is no call.
        "src/selfcheck.js": """\
            const express = require('express')
            const supertest = require('supertest')
            const app = express()
            exports.ping = () => supertest(app).get('/health')
            """,
    }
    calls = sorted((c.file, c.line, c.client, c.method, url(c.url)) for c in analyze(files).calls)
    assert calls == [
        ("src/ledger.js", 2, "supertest", "POST", "http://ledger:4000/entries"),
        ("src/rates.ts", 3, "supertest", "GET", "${RATES_URL:http://rates:9000}/rates/{?code}"),
    ]


def test_urls_built_with_util_format() -> None:
    files = {
        "src/stock.js": """\
            const util = require('util')
            const axios = require('axios')
            const host = process.env.STOCK_HOST || 'stock'
            exports.items = (sku) => axios.get(util.format('http://%s:%d/items/%s', host, 8080, sku))
            """,
        "src/rates.ts": """\
            import { format } from 'node:util';
            const RATES = 'rates:9000';
            export const rate = (c: string) => fetch(format('http://%s/rates/%s?%%', RATES, c));
            """,
        # Another library's `format` is no URL template.
        "src/dates.js": """\
            const { format } = require('date-fns')
            const axios = require('axios')
            exports.day = (d) => axios.get(format(d, 'yyyy-MM-dd'))
            """,
    }
    calls = sorted((c.file, url(c.url)) for c in analyze(files).calls)
    assert calls == [
        ("src/dates.js", "{?format(d, 'yyyy-MM-dd')}"),
        ("src/rates.ts", "http://rates:9000/rates/{?c}?%"),
        ("src/stock.js", "http://${STOCK_HOST:stock}:8080/items/{?sku}"),
    ]
