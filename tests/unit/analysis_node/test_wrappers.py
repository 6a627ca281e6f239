"""Thin HTTP wrappers: the path and the HTTP verb supplied at the helper's call sites."""

from __future__ import annotations

from .support import analyze, url

VERBS = {
    "src/lib/http.js": """\
        const axios = require('axios');
        const API = process.env.CART_URL || 'http://cart:3000';

        const call = (method, url, data) => axios({ method, url: `${API}${url}`, data });

        async function hit(verb, path, body) {
          const res = await axios[verb.toLowerCase()](`${process.env.STOCK_URL}${path}`, body);
          return res.data;
        }

        function apiFetch(path, init = {}) {
          return fetch(`${process.env.TAX_URL}${path}`, { ...init, headers: { 'x-app': 'shop' } });
        }

        function callApi(path, method = 'GET') {
          return fetch(process.env.FX_URL + path, { method: method.toUpperCase() });
        }

        async function request(method, path, body) {
          const res = await fetch(process.env.ORDERS_URL + path, {
            method,
            headers: { 'content-type': 'application/json' },
            body: body && JSON.stringify(body),
          });
          return res.json();
        }

        const api = {
          get: (p) => request('GET', p),
          post: (p, b) => request('POST', p, b),
        };

        module.exports = { call, hit, apiFetch, callApi, api, request };
        """,
    "src/lib/cart.client.ts": """\
        import axios, { AxiosInstance } from 'axios';

        export class CartClient {
          private readonly http: AxiosInstance;

          constructor() {
            this.http = axios.create({ baseURL: process.env.CART_API });
          }

          private send<T>(verb: string, path: string, data?: unknown) {
            return this.http.request<T>({ method: verb, url: path, data });
          }

          update(id: string, body: unknown) {
            return this.send('PUT', `/carts/${id}`, body);
          }
        }
        """,
    "src/routes/orders.js": """\
        const express = require('express');
        const { call, hit, apiFetch, callApi, api, request } = require('../lib/http');
        const router = express.Router();

        router.delete('/carts/:id', async (req, res) => {
          await call('delete', `/carts/${req.params.id}`);
          res.sendStatus(204);
        });

        router.post('/stock', async (req, res) => {
          res.json(await hit('patch', '/stock/levels', req.body));
        });

        router.post('/taxes', async (req, res) => {
          await apiFetch('/quotes', { method: 'POST', body: JSON.stringify(req.body) });
          await apiFetch('/rates');
          await callApi('/fx');
          await callApi('/fx/lock', 'patch');
          res.end();
        });

        router.post('/orders', async (req, res) => {
          res.json(await api.post('/orders', req.body));
        });

        router.get('/orders/:id', async (req, res) => {
          res.json(await api.get(`/orders/${req.params.id}`));
        });

        const cancelOrder = (id) => request('DELETE', `/orders/${id}`);

        module.exports = { router, cancelOrder };
        """,
}


def test_the_http_verb_is_carried_from_the_call_sites_of_a_wrapper() -> None:
    facts = analyze(VERBS)
    got = sorted((c.file, c.line, c.client, c.method, url(c.url), c.api_handler) for c in facts.calls)
    orders = "src/routes/orders.js"
    assert got == [
        ("src/lib/cart.client.ts", 15, "wrapper:CartClient.send", "PUT", "${CART_API}/carts/{?id}", None),
        (
            orders,
            6,
            "wrapper:call",
            "DELETE",
            "${CART_URL:http://cart:3000}/carts/{?req.params.id}",
            "<anonymous>@5",
        ),
        (orders, 11, "wrapper:hit", "PATCH", "${STOCK_URL}/stock/levels", "<anonymous>@10"),
        (orders, 15, "wrapper:apiFetch", "POST", "${TAX_URL}/quotes", "<anonymous>@14"),
        (orders, 16, "wrapper:apiFetch", "GET", "${TAX_URL}/rates", "<anonymous>@14"),
        (orders, 17, "wrapper:callApi", "GET", "${FX_URL}/fx", "<anonymous>@14"),
        (orders, 18, "wrapper:callApi", "PATCH", "${FX_URL}/fx/lock", "<anonymous>@14"),
        # Helpers built on helpers: api.post(p, b) -> request("POST", p, b) -> fetch(...).
        (orders, 23, "wrapper:post", "POST", "${ORDERS_URL}/orders", "<anonymous>@22"),
        (orders, 27, "wrapper:get", "GET", "${ORDERS_URL}/orders/{?req.params.id}", "<anonymous>@26"),
        (orders, 30, "wrapper:request", "DELETE", "${ORDERS_URL}/orders/{?id}", None),
    ]


def test_no_call_is_left_without_its_method_or_at_the_helper_itself() -> None:
    facts = analyze(VERBS)
    assert all(c.method for c in facts.calls)
    assert not [c for c in facts.calls if c.file == "src/lib/http.js"]


UNUSED = {
    "src/lib/http.ts": """\
        export async function request(method: string, path: string) {
          return fetch(`${process.env.API_URL}${path}`, { method });
        }
        """,
}


def test_a_wrapper_nobody_calls_is_reported_where_it_is() -> None:
    facts = analyze(UNUSED)
    assert [(c.line, c.client, c.method, url(c.url)) for c in facts.calls] == [
        (2, "fetch", None, "${API_URL}{?path}")
    ]


PATHS = {
    "src/config.ts": """\
        export const USERS_API = process.env.USERS_API ?? 'http://users:4000';
        """,
    "src/pay.js": """\
        const axios = require('axios');
        const API = process.env.PAY_URL || 'http://pay:3000';
        const BASE_URL = 'http://orders-service:3000/api';

        const get = (path) => axios.get(`${API}${path}`);
        const api = (path) => fetch(`${API}/api/${path}`);
        function getJson(path) {
          return fetch(BASE_URL + path).then((r) => r.json());
        }
        function getOrder(id) {
          return axios.get(`${API}/orders/${id}`);
        }
        function byQuery(q) {
          return axios.get(`${API}/search?path=${q}`);
        }

        function one(id) { return get(`/payments/${id}`); }
        function two(id) { return api(`refunds/${id}`); }
        function three(orderId) { return getJson(`/orders/${orderId}/items`); }
        function four() { return getOrder('42'); }
        function five() { return byQuery('/x'); }
        module.exports = { one, two, three, four, five };
        """,
    "src/users.ts": """\
        import got from 'got';
        import { USERS_API } from './config';

        export const usersGet = (endpoint: string) => got(`${USERS_API}${endpoint}`).json();
        """,
    "src/app.ts": """\
        import express from 'express';
        import { usersGet } from './users';

        const app = express();

        app.get('/me/:id', async (req, res) => {
          res.json(await usersGet(`/users/${req.params.id}/profile`));
        });

        app.listen(3000);
        """,
}


def test_wrappers_with_constant_bases_and_templated_paths() -> None:
    facts = analyze(PATHS)
    got = sorted((c.file, c.line, c.client, c.method, url(c.url), c.api_handler) for c in facts.calls)
    pay = "${PAY_URL:http://pay:3000}"
    assert got == [
        (
            "src/app.ts",
            7,
            "wrapper:usersGet",
            "GET",
            "${USERS_API:http://users:4000}/users/{?req.params.id}/profile",
            "<anonymous>@6",
        ),
        # An id after a literal path is not a helper's path: reported where the client is called.
        ("src/pay.js", 11, "axios", "GET", pay + "/orders/{?id}", None),
        ("src/pay.js", 14, "axios", "GET", pay + "/search?path={?q}", None),
        ("src/pay.js", 17, "wrapper:get", "GET", pay + "/payments/{?id}", None),
        ("src/pay.js", 18, "wrapper:api", "GET", pay + "/api/refunds/{?id}", None),
        (
            "src/pay.js",
            19,
            "wrapper:getJson",
            "GET",
            "http://orders-service:3000/api/orders/{?orderId}/items",
            None,
        ),
    ]


def test_a_field_built_from_constructor_parameters_is_not_filled_by_a_methods_arguments() -> None:
    facts = analyze(
        {
            "src/depot.js": """\
                class DepotClient {
                  constructor(base) {
                    this.crates = `${base}/crates`;
                    this.audit = process.env.AUDIT_URL || 'http://audit:7000';
                  }
                  crate(id) { return fetch(`${this.crates}/${id}`); }
                  log(entry) { return fetch(`${this.audit}/log/${entry}`); }
                }
                module.exports = { DepotClient };
                """,
            "src/main.js": """\
                const { DepotClient } = require('./depot');
                const depot = new DepotClient('http://depot:8080');
                depot.crate('c-1');
                depot.log('opened');
                """,
        }
    )
    found = sorted(url(c.url) or "" for c in facts.calls)
    assert "http://depot:8080/crates/{?id}" in found  # the constructor's argument, given at `new`
    assert not any(u.startswith(("c-1", "opened", "{?id}/crates")) for u in found)
    assert any(u.startswith("${AUDIT_URL:http://audit:7000}/log/") for u in found)
