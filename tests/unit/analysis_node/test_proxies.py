"""Reverse proxies of Node gateways: each upstream target is one call from the gateway, whatever
library forwards the request (http-proxy per request or per server, http-proxy-middleware in its
current and older forms, express-http-proxy, koa-proxies); a `.web(...)` of something else is not."""

from __future__ import annotations

from .support import analyze, url


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, str, int]]:
    return sorted((c.method, url(c.url), c.client, c.line) for c in analyze(files).calls)


def test_http_proxy_targets_per_request_and_per_server() -> None:
    files = {
        "gateway/server.js": """\
            const express = require("express");
            const httpProxy = require("http-proxy");
            const forwarder = httpProxy.createProxyServer();
            const billing = httpProxy.createProxyServer({ target: process.env.BILLING_URL || "http://billing:7000" });
            const app = express();

            app.use("/ledger", (req, res) => {
              forwarder.web(req, res, { target: "http://ledger-svc:4100" });
            });
            app.use("/billing", (req, res) => billing.web(req, res));
            app.listen(8080);
            """,
    }
    assert _calls(files) == [
        (None, "${BILLING_URL:http://billing:7000}", "http-proxy", 4),
        (None, "http://ledger-svc:4100", "http-proxy", 8),
    ]


def test_proxy_middleware_current_and_older_forms() -> None:
    files = {
        "src/app.ts": """\
            import express from 'express';
            import { createProxyMiddleware } from 'http-proxy-middleware';
            import proxy from 'http-proxy-middleware';

            const CATALOG = `http://${process.env.CATALOG_HOST}:5000`;
            const app = express();
            app.use('/catalog', createProxyMiddleware({ target: CATALOG, changeOrigin: true }));
            app.use(proxy('/reviews', { target: 'http://reviews:5100', pathRewrite: { '^/reviews': '' } }));
            app.listen(80);
            """,
    }
    assert _calls(files) == [
        (None, "http://${CATALOG_HOST}:5000", "http-proxy-middleware", 7),
        (None, "http://reviews:5100", "http-proxy-middleware", 8),
    ]


def test_express_http_proxy_and_koa_proxies_name_the_upstream() -> None:
    files = {
        "edge/index.js": """\
            const proxy = require('express-http-proxy');
            const app = require('express')();
            const hosts = { wallet: 'http://wallet:9100' };
            app.use('/wallet', proxy(hosts.wallet));
            app.listen(3000);
            """,
        "koa-edge/index.js": """\
            const Koa = require('koa');
            const proxies = require('koa-proxies');
            const app = new Koa();
            app.use(proxies('/points', { target: 'http://loyalty:8200', changeOrigin: true }));
            app.listen(3001);
            """,
    }
    assert _calls(files) == [
        (None, "http://loyalty:8200", "koa-proxies", 4),
        (None, "http://wallet:9100", "express-http-proxy", 4),
    ]


def test_web_of_something_else_and_proxies_without_target_are_no_calls() -> None:
    files = {
        "src/index.js": """\
            const httpProxy = require("http-proxy");
            const spider = { web(req, res, opts) { return opts; } };
            const quiet = httpProxy.createProxyServer({ changeOrigin: true });
            quiet.web({}, {});
            """,
        "src/crawler.js": """\
            const spider = require("./spider");
            spider.web(null, null, { target: "http://not-a-proxy:1" });
            """,
    }
    assert _calls(files) == []
