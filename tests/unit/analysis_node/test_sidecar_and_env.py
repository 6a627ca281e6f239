"""Calls through a Dapr sidecar (`dapr-app-id` header) and base URLs a browser bundle reads from
injected configuration (`window._env_`, a ternary over two sources, react-env's `env("X")`)."""

from __future__ import annotations

from .support import analyze, url

SIDECAR = {
    "routes/stock.js": """\
        const axios = require('axios');
        const stockApp = process.env.STOCK_APP_ID || 'stock-app';
        const sidecar = `http://localhost:${process.env.DAPR_HTTP_PORT || 3500}`;

        async function level(sku) {
          return axios.get(`${sidecar}/levels/${sku}`, { headers: { 'dapr-app-id': stockApp } });
        }

        async function reserve(sku) {
          return fetch(`${sidecar}/reservations`, {
            method: 'POST',
            headers: { 'Dapr-App-Id': 'stock-app', 'content-type': 'application/json' },
          });
        }

        async function plain() {
          return axios.get(`${sidecar}/health`, { headers: { authorization: 'x' } });
        }
        module.exports = { level, reserve, plain };
        """,
}


def test_dapr_app_id_header_names_the_callee():
    calls = sorted((c.method, url(c.url)) for c in analyze(SIDECAR).calls)
    assert calls == [
        ("GET", "http://${STOCK_APP_ID:stock-app}/levels/{?sku}"),
        ("GET", "http://localhost:${DAPR_HTTP_PORT:3500}/health"),  # no app id: the sidecar itself
        ("POST", "http://stock-app/reservations"),
    ]


BROWSER = {
    "src/config.js": """\
        import env from '@beam-australia/react-env';
        export const ledgerBase = env('LEDGER_BACKEND') || '';
        """,
    "src/api/ledger.js": """\
        import { ledgerBase } from '../config';
        export const entries = () => fetch(`${ledgerBase}/entries`);
        """,
    "src/api/rates.js": """\
        const ratesBase = window._env_ ? window._env_.RATES_URL : process.env.RATES_URL;
        export const rates = () => fetch(`${ratesBase}/rates`);
        """,
    "src/api/tips.js": """\
        const tipsBase = window.__ENV.TIPS_URL;
        const either = window.dev ? 'http://a' : 'http://b';
        export const tips = () => fetch(`${tipsBase}/tips`);
        export const other = () => fetch(`${either}/other`);
        """,
}


def test_injected_browser_configuration_reads_an_environment_variable():
    calls = sorted(url(c.url) or "" for c in analyze(BROWSER).calls)
    assert calls == [
        "${RATES_URL}/rates",  # both branches read the same setting
        "${REACT_APP_LEDGER_BACKEND:}/entries",  # react-env adds the REACT_APP_ prefix
        "${TIPS_URL}/tips",
        "{?either}/other",  # a choice between two literals stays unknown
    ]


def test_env_function_of_another_library_is_not_a_config_read():
    files = {
        "src/a.js": """\
            import env from './my-env';
            const base = env('LEDGER_BACKEND');
            export const f = () => fetch(`${base}/x`);
            """,
    }
    assert [url(c.url) for c in analyze(files).calls] != ["${REACT_APP_LEDGER_BACKEND}/x"]
