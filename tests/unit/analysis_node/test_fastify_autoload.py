"""Fastify's autoloader registers every plugin under a folder, prefixed by its sub-folder:
`routes/parcels/index.js` serves `fastify.post("/")` at `/parcels`, `routes/root.js` at `/`, and
the loader's `options.prefix` goes first."""

from __future__ import annotations

from .support import analyze

ROUTES = {
    "src/routes/root.js": """\
        'use strict'
        module.exports = async function (fastify, opts) {
          fastify.get('/', async () => ({ up: true }))
        }
        """,
    "src/routes/parcels/index.js": """\
        'use strict'
        module.exports = async function (fastify, opts) {
          fastify.post('/', async (request, reply) => reply.code(201))
          fastify.get('/:parcelId', async (request) => ({}))
        }
        """,
    "src/routes/parcels/labels/print.ts": """\
        import { FastifyPluginAsync } from 'fastify'
        const print: FastifyPluginAsync = async (fastify) => {
          fastify.put('/print', async () => 'ok')
        }
        export default print
        """,
    "src/plugins/broker.js": """\
        const fp = require('fastify-plugin')
        module.exports = fp(async function (fastify) { fastify.decorate('broker', {}) })
        """,
}


def _routes(app: str) -> list[tuple[str, str]]:
    return sorted((a.method, a.path) for a in analyze({**ROUTES, "src/app.js": app}).apis)


def test_each_autoloaded_plugin_is_prefixed_by_its_sub_folder() -> None:
    app = """\
        const path = require('path')
        const AutoLoad = require('@fastify/autoload')
        module.exports = async function (fastify, opts) {
          fastify.register(AutoLoad, { dir: path.join(__dirname, 'plugins'), options: Object.assign({}, opts) })
          fastify.register(AutoLoad, { dir: path.join(__dirname, 'routes'), options: Object.assign({}, opts) })
        }
        """
    assert _routes(app) == [
        ("GET", "/"),
        ("GET", "/parcels/:parcelId"),
        ("POST", "/parcels"),
        ("PUT", "/parcels/labels/print"),
    ]


def test_the_loader_prefix_goes_before_the_folders() -> None:
    app = """\
        import { join } from 'path'
        import AutoLoad from '@fastify/autoload'
        export default async function app(fastify, opts) {
          void fastify.register(AutoLoad, { dir: join(__dirname, 'routes'), options: { prefix: '/depot' } })
        }
        """
    assert _routes(app) == [
        ("GET", "/depot"),
        ("GET", "/depot/parcels/:parcelId"),
        ("POST", "/depot/parcels"),
        ("PUT", "/depot/parcels/labels/print"),
    ]


def test_a_folder_the_loader_does_not_name_gets_no_folder_prefix() -> None:
    app = """\
        const AutoLoad = require('@fastify/autoload')
        module.exports = async function (fastify, opts) {
          fastify.register(AutoLoad, { dir: somewhereElse(), options: opts })
        }
        """
    assert ("POST", "/parcels") not in _routes(app)
