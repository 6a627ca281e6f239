"""Node's own HTTP clients (`http.request(options)`, `https.get(url)`) and verb-first `needle(...)`."""

from __future__ import annotations

from .support import analyze, url

CJS = """\
    const http = require('http')
    const needle = require('needle')
    const KILN_HOST = process.env.KILN_HOST || 'kilns'
    exports.fire = (id) => {
      const req = http.request({ hostname: KILN_HOST, port: 3000, path: `/kilns/${id}/fire`, method: 'POST' })
      req.end()
    }
    exports.ship = () => needle('put', 'http://ship:7000/parcels', {})
    """

ESM = """\
    import https from 'node:https';
    import express from 'express';
    const app = express();
    app.get('/status', (req, res) => {
      https.get(`https://${process.env.GLAZE_HOST}/glazes`, (r) => r.pipe(res));
    });
    export default app;
    """


def test_options_with_host_port_and_path_and_a_verb_first_client() -> None:
    got = sorted((c.method, url(c.url), c.client, c.line) for c in analyze({"src/kilns.js": CJS}).calls)
    assert got == [
        ("POST", "http://${KILN_HOST:kilns}:3000/kilns/{?id}/fire", "http", 5),
        ("PUT", "http://ship:7000/parcels", "needle", 8),
    ]


def test_https_get_with_a_url_beside_a_route_of_the_same_verb() -> None:
    facts = analyze({"src/app.mjs": ESM})
    assert [(c.method, url(c.url), c.client) for c in facts.calls] == [
        ("GET", "https://${GLAZE_HOST}/glazes", "https")
    ]
    assert [(a.method, a.path) for a in facts.apis] == [("GET", "/status")]
