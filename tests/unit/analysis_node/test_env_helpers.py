"""A project's own environment reader (`const env = (name, dflt) => process.env[name] || dflt`):
called with a literal name, it is that environment variable, with the default it is given."""

from __future__ import annotations

from .support import analyze, url

HELPERS_CJS = """\
    const env = (name, fallback) => process.env[name] || fallback
    function required(name) {
      const value = process.env[name]
      if (!value) throw new Error(`missing ${name}`)
      return value
    }
    module.exports = { env, required }
    """

APP_CJS = """\
    const axios = require('axios')
    const { env, required } = require('./env')
    const KILNS = env('KILNS_URL', 'http://kilns:8080')
    const GLAZE = required('GLAZE_URL')
    exports.fire = () => axios.post(`${KILNS}/fire`)
    exports.glaze = (id) => axios.get(GLAZE + '/glazes/' + id)
    """

HELPER_TS = """\
    export function setting(key: string): string {
      return process.env[key] ?? 'http://localhost:9000'
    }
    """

APP_TS = """\
    import axios from 'axios';
    import { setting } from './setting';
    export const stock = () => axios.get(`${setting('STOCK_URL')}/items`);
    export const other = (k: string) => axios.get(`${setting(k)}/items`);
    """


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, int]]:
    return sorted((c.method, url(c.url), c.line) for c in analyze(files).calls)


def test_helper_with_the_default_passed_and_one_without_commonjs() -> None:
    assert _calls({"src/env.js": HELPERS_CJS, "src/app.js": APP_CJS}) == [
        ("GET", "${GLAZE_URL}/glazes/{?id}", 6),
        ("POST", "${KILNS_URL:http://kilns:8080}/fire", 5),
    ]


def test_helper_with_its_own_default_called_inline_typescript() -> None:
    got = _calls({"src/setting.ts": HELPER_TS, "src/app.ts": APP_TS})
    assert ("GET", "${STOCK_URL:http://localhost:9000}/items", 3) in got
    # a name only known at run time is no variable: the call keeps a gap naming the helper's parameter
    assert ("GET", "{?key}/items", 4) in got
