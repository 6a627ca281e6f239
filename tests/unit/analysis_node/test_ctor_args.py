"""Client classes given their address when made (`new OvenProxy({ baseUrl: process.env.OVEN_URL })`):
calls through the instance take the address passed where the class is made."""

from __future__ import annotations

from .support import analyze, url

PROXY = """\
    const fetch = require('node-fetch')
    class OvenProxy {
      constructor(options) {
        this.ovens = `${options.baseUrl}/ovens`
      }
      heat(id) {
        return fetch(`${this.ovens}/${id}/heat`, { method: 'POST' })
      }
    }
    module.exports = { OvenProxy }
    """

SERVER = """\
    const { OvenProxy } = require('./oven-proxy')
    const ovens = new OvenProxy({ baseUrl: process.env.OVEN_URL || 'http://localhost:7000' })
    module.exports = { ovens }
    """

TS_CLIENT = """\
    import axios from 'axios';
    export class FlourClient {
      private readonly base: string;
      constructor(base: string) {
        this.base = base;
      }
      sacks() {
        return axios.get(`${this.base}/sacks`);
      }
    }
    """

TS_USERS = """\
    import { FlourClient } from './flour-client';
    export const mill = new FlourClient('http://mill:8080');
    export const store = new FlourClient('http://store:8080');
    """


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, str, int]]:
    return sorted((c.method, url(c.url), c.file, c.line) for c in analyze(files).calls)


def test_options_object_given_at_new_commonjs() -> None:
    assert _calls({"src/oven-proxy.js": PROXY, "src/server.js": SERVER}) == [
        ("POST", "${OVEN_URL:http://localhost:7000}/ovens/{?id}/heat", "src/oven-proxy.js", 7)
    ]


def test_positional_base_made_twice_gives_one_call_each_typescript() -> None:
    assert _calls({"src/flour-client.ts": TS_CLIENT, "src/users.ts": TS_USERS}) == [
        ("GET", "http://mill:8080/sacks", "src/flour-client.ts", 8),
        ("GET", "http://store:8080/sacks", "src/flour-client.ts", 8),
    ]


def test_nobody_makes_the_class_the_address_stays_named() -> None:
    assert _calls({"src/oven-proxy.js": PROXY}) == [
        ("POST", "{?options.baseUrl}/ovens/{?id}/heat", "src/oven-proxy.js", 7)
    ]


def test_a_value_known_only_in_the_maker_is_not_carried_over() -> None:
    maker = "const { OvenProxy } = require('./oven-proxy')\nmodule.exports = (cfg) => new OvenProxy({ baseUrl: cfg.url })\n"
    assert _calls({"src/oven-proxy.js": PROXY, "src/make.js": maker}) == [
        ("POST", "{?options.baseUrl}/ovens/{?id}/heat", "src/oven-proxy.js", 7)
    ]


def test_a_field_set_by_a_setter_is_no_constructor_argument() -> None:
    setter = TS_CLIENT.replace("constructor(base: string) {", "point(base: string) {")
    got = _calls({"src/flour-client.ts": setter, "src/users.ts": TS_USERS})
    assert [u for _m, u, _f, _l in got] == ["{?this.base}/sacks"]
