"""Helpers that take one options object apart (`({ url, method }) => ...`): the fields a call site
passes fill the path and the verb, like a positional thin wrapper's arguments do."""

from __future__ import annotations

from .support import analyze, url

HELPERS = {
    "src/lib/orchard.js": """\
        const axios = require('axios');
        const ORCHARD = process.env.ORCHARD_URL || 'http://orchard:4100';

        const send = ({ path, method, body }) => axios({ url: `${ORCHARD}${path}`, method, data: body });

        async function pick({ url, method = 'GET', payload }) {
          const res = await fetch(url, { method, body: JSON.stringify(payload) });
          return res.json();
        }

        module.exports = { send, pick };
        """,
    "src/lib/press.ts": """\
        import axios from 'axios';

        interface Squeeze { route: string; verb: 'get' | 'post'; }

        export async function squeeze({ route, verb }: Squeeze) {
          const res = await axios[verb](process.env.PRESS_URL + route);
          return res.data;
        }

        export const weigh = ({ endpoint: where }) => fetch(`${process.env.SCALE_URL}${where}`);
        """,
    "src/crates.js": """\
        const { send, pick } = require('./lib/orchard');
        const { squeeze, weigh } = require('./lib/press');

        exports.list = () => send({ path: '/crates', method: 'get' });
        exports.stack = (crate) => send({ path: '/crates', method: 'post', body: crate });
        exports.ripe = () => pick({ url: 'http://ripeness:4200/apples' });
        exports.cider = () => pick({ url: `${process.env.CIDER_URL}/barrels`, method: 'PUT' });
        exports.juice = () => squeeze({ route: '/juice', verb: 'post' });
        exports.scale = () => weigh({ endpoint: '/scales/1' });
        """,
}


def sites(files: dict[str, str]) -> list[tuple[str, str | None, str]]:
    return sorted((c.method or "", url(c.url), c.file) for c in analyze(files).calls)


def test_fields_passed_at_the_call_site_fill_the_path_and_the_verb():
    got = sites(HELPERS)
    assert got == [
        ("GET", "${ORCHARD_URL:http://orchard:4100}/crates", "src/crates.js"),
        ("GET", "${SCALE_URL}/scales/1", "src/crates.js"),
        ("GET", "http://ripeness:4200/apples", "src/crates.js"),
        ("POST", "${ORCHARD_URL:http://orchard:4100}/crates", "src/crates.js"),
        ("POST", "${PRESS_URL}/juice", "src/crates.js"),
        ("PUT", "${CIDER_URL}/barrels", "src/crates.js"),
    ]


def test_a_site_passing_a_variable_leaves_the_field_unknown_at_the_helper():
    files = {
        "src/lib/orchard.js": HELPERS["src/lib/orchard.js"],
        "src/crates.js": """\
            const { send } = require('./lib/orchard');
            exports.any = (opts) => send(opts);
            """,
    }
    got = sites(files)
    assert [u for _, u, _ in got] == ["${ORCHARD_URL:http://orchard:4100}{?path}", "{?url}"]
    assert not any("crates" in (u or "") for _, u, _ in got)


def test_a_field_after_a_literal_path_is_an_id_not_a_wrapper():
    files = {
        "src/lib/bees.js": """\
            const axios = require('axios');
            const hive = ({ id }) => axios.get(`${process.env.HIVE_URL}/hives/${id}`);
            module.exports = { hive };
            """,
        "src/use.js": """\
            const { hive } = require('./lib/bees');
            exports.one = () => hive({ id: '7' });
            """,
    }
    got = sites(files)
    assert got == [("GET", "${HIVE_URL}/hives/{?id}", "src/lib/bees.js")]


def test_a_plain_parameter_named_like_a_field_is_still_positional():
    files = {
        "src/lib/bees.js": """\
            const axios = require('axios');
            const call = (path, { method }) => axios({ url: process.env.HIVE_URL + path, method });
            module.exports = { call };
            """,
        "src/use.js": """\
            const { call } = require('./lib/bees');
            exports.swarm = () => call('/swarms', { method: 'delete' });
            """,
    }
    assert sites(files) == [("DELETE", "${HIVE_URL}/swarms", "src/use.js")]


HOOKS = {
    "hooks/use-send.js": """\
        import axios from 'axios';
        import { useState } from 'react';

        export default ({ url, method, body, onDone }) => {
          const [error, setError] = useState(null);
          const send = async (extra = {}) => {
            try {
              const res = await axios[method](url, { ...body, ...extra });
              onDone && onDone(res.data);
            } catch (err) {
              setError(err);
            }
          };
          return { send, error };
        };
        """,
    "lib/greenhouse.js": """\
        const axios = require('axios');
        module.exports = (path) => axios.get(`${process.env.GREENHOUSE_URL}${path}`);
        """,
    "lib/watering.ts": """\
        export function useWatering(route: string) {
          const go = () => fetch(process.env.NEXT_PUBLIC_WATER_URL + route, { method: 'POST' });
          return go;
        }
        """,
    "pages/plants.js": """\
        import useSend from '../hooks/use-send';
        import { useWatering } from '../lib/watering';
        const greenhouse = require('../lib/greenhouse');

        const Plants = ({ plant }) => {
          const { send } = useSend({ url: '/api/plants', method: 'post', body: { id: plant.id } });
          const water = useWatering('/api/water');
          return [send, water];
        };
        Plants.getInitialProps = async () => ({ beds: await greenhouse('/beds') });
        export default Plants;
        """,
}


def test_a_closure_reading_its_hooks_options_is_reported_where_the_hook_is_used():
    assert sites(HOOKS) == [
        ("GET", "${GREENHOUSE_URL}/beds", "pages/plants.js"),
        ("POST", "${NEXT_PUBLIC_WATER_URL}/api/water", "pages/plants.js"),
        ("POST", "/api/plants", "pages/plants.js"),
    ]


def test_a_hook_nobody_uses_stays_one_unknown_call_where_it_is():
    files = {"hooks/use-send.js": HOOKS["hooks/use-send.js"]}
    assert sites(files) == [("", "{?url}", "hooks/use-send.js")]
