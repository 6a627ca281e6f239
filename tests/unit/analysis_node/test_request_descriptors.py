"""Requests declared as data in a table of named requests: `{ method: "GET", url: `${api}/x` }`."""

from __future__ import annotations

from .support import analyze, url

CONFIG = """\
    export const stockApi = process.env.REACT_APP_STOCK_API || 'http://localhost:8300'
    """

RESOURCES = """\
    import { createResource } from 'some-rest-kit'
    import { stockApi } from '../config'

    const shelves = createResource('shelves')({
      listShelves: {
        method: 'GET',
        url: `${stockApi}/shelves`,
      },
      moveShelf: { method: 'put', url: `${stockApi}/shelves/:shelfId` },
    })
    export default shelves
    """

ENDPOINTS = """\
    const BILLING = 'https://billing.internal:9443'
    module.exports = {
      endpoints: {
        invoice: { method: 'POST', url: BILLING + '/invoices' },
      },
    }
    """


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, str, int]]:
    return sorted((c.method, url(c.url), c.client, c.line) for c in analyze(files).calls)


def test_resource_table_with_a_configured_base_es_modules() -> None:
    assert _calls({"src/config.js": CONFIG, "src/rest/shelves.js": RESOURCES}) == [
        ("GET", "${REACT_APP_STOCK_API:http://localhost:8300}/shelves", "request-descriptor", 5),
        ("PUT", "${REACT_APP_STOCK_API:http://localhost:8300}/shelves/:shelfId", "request-descriptor", 9),
    ]


def test_endpoint_map_with_an_absolute_base_commonjs() -> None:
    assert _calls({"src/endpoints.js": ENDPOINTS}) == [
        ("POST", "https://billing.internal:9443/invoices", "request-descriptor", 4)
    ]


def test_route_tables_and_bare_paths_are_not_calls() -> None:
    routes = """\
        const fastify = require('fastify')()
        const table = {
          health: { method: 'GET', url: '/health', handler: async () => 'ok' },
          relative: { method: 'GET', url: '/shelves' },
          noMethod: { url: `${process.env.STOCK}/x` },
          notAVerb: { method: 'fast', url: `${process.env.STOCK}/x` },
        }
        fastify.route({ method: 'GET', url: `${process.env.STOCK}/y`, handler: () => 1 })
        module.exports = table
        """
    assert _calls({"src/routes.js": routes}) == []
