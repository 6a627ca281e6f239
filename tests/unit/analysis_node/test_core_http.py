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


OPTIONS_VARIABLE = """\
    const http = require('http')
    const axios = require('axios')
    let mill = process.env.MILL_HOST || 'localhost'
    const defaults = { hostname: 'granary', port: 9000, path: '/grain' }
    exports.grind = () => {
      var options = { host: mill, port: '3001', path: '/flour', method: 'GET' }
      const req = http.request(options, (res) => res.resume())
      req.end()
    }
    exports.store = () => http.request(defaults).end()
    exports.sift = () => {
      const config = { url: `${process.env.SIEVE_URL}/sieves`, method: 'put' }
      return axios(config)
    }
    exports.other = (options) => http.request(options)
    exports.late = () => {
      const req = http.request(later)
      const later = { hostname: 'too-late', path: '/x' }
      return req
    }
    """


def test_an_options_object_declared_in_a_variable_before_the_request() -> None:
    got = sorted((c.line, c.method, url(c.url)) for c in analyze({"src/mill.js": OPTIONS_VARIABLE}).calls)
    assert got == [
        (7, "GET", "http://${MILL_HOST:localhost}:3001/flour"),
        (10, "GET", "http://granary:9000/grain"),
        (13, "PUT", "${SIEVE_URL}/sieves"),
        (15, "GET", "{?options}"),  # a parameter: nothing to read
        (17, "GET", "{?later}"),  # declared after the request: not what it sends
    ]


IMPORT_REQUIRE = """\
    import reqLib = require('request');
    import * as crypto from 'crypto';

    export class SiloApi {
      constructor(private readonly base: string) {}

      public store(grain: string) {
        const opts: reqLib.Options = { method: 'POST', uri: process.env.SILO_URL + '/silos', json: true };
        return new Promise((resolve) => reqLib(opts, (err, res) => resolve(res)));
      }

      public digest(text: string) {
        return crypto.createHash('sha1').update(text).digest('hex');
      }
    }
    """


def test_a_typescript_import_require_binds_the_module_it_names() -> None:
    facts = analyze({"src/silo.ts": IMPORT_REQUIRE})
    assert [(c.method, url(c.url), c.client) for c in facts.calls] == [
        ("POST", "${SILO_URL}/silos", "request")
    ]
