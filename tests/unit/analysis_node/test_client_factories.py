"""HTTP clients a project's own factory makes from its arguments (`apiAdapter(BASE_URL)` returning
`axios.create({ baseURL })`): each call on the client goes to the base its caller passed."""

from __future__ import annotations

from .support import analyze, url

ADAPTER_CJS = """\
    const axios = require('axios');
    module.exports = baseURL => {
      return axios.create({ baseURL: baseURL, timeout: 500 });
    };
    """

ADAPTER_ESM = """\
    import axios from 'axios';
    export function makeClient(root, token) {
      return axios.create({ baseURL: `${root}/v2`, headers: { token } });
    }
    export const arrowClient = (root) => axios.create({ baseURL: root });
    """


def _calls(files: dict[str, str]) -> list[tuple[str, str | None, str | None, int]]:
    return sorted((c.file, c.method, url(c.url), c.line) for c in analyze(files).calls)


def test_a_required_factory_module_gives_each_router_its_own_base() -> None:
    files = {
        "src/adapter.js": ADAPTER_CJS,
        "src/routes/parcels.js": """\
            const router = require('express').Router();
            const apiAdapter = require('../adapter');
            const BASE = 'http://parcels:3000';
            const api = apiAdapter(BASE);
            router.get('/parcels', (req, res) => api.get(req.originalUrl).then(r => res.send(r.data)));
            module.exports = router;
            """,
        "src/routes/lockers.js": """\
            const router = require('express').Router();
            const api = require('../adapter')(process.env.LOCKERS_URL || 'http://lockers:4000');
            router.post('/lockers', (req, res) => api.post('/lockers').then(r => res.send(r.data)));
            module.exports = router;
            """,
    }
    got = _calls(files)
    assert ("src/routes/parcels.js", "GET", "http://parcels:3000{?req.originalUrl}", 5) in got
    assert ("src/routes/lockers.js", "POST", "${LOCKERS_URL:http://lockers:4000}/lockers", 3) in got


def test_named_and_arrow_factories_with_the_base_built_from_a_parameter() -> None:
    files = {
        "src/clients.js": ADAPTER_ESM,
        "src/use.js": """\
            import { makeClient, arrowClient } from './clients';
            const billing = makeClient('http://billing:8080', 't');
            const audit = arrowClient('http://audit:9000');
            export const charge = () => billing.post('/charges');
            export const trail = () => audit.get('/trail');
            """,
    }
    got = _calls(files)
    assert ("src/use.js", "POST", "http://billing:8080/v2/charges", 4) in got
    assert ("src/use.js", "GET", "http://audit:9000/trail", 5) in got


def test_a_factory_returning_something_else_makes_no_call() -> None:
    files = {
        "src/make.js": "module.exports = name => ({ name, get: p => p });\n",
        "src/use.js": "const thing = require('./make')('x');\nthing.get('/nothing');\n",
    }
    assert _calls(files) == []
