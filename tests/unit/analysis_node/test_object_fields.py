"""A class holding its upstreams in an object field (`this.hosts = { reviews: ... }` in the
constructor, or `private urls = { ... }` as a class property): `this.hosts.reviews` reads that
entry, constructor arguments included; a third-party host stays a literal, an unset entry a gap."""

from __future__ import annotations

from .support import analyze, url


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None]]:
    return sorted((c.method, url(c.url)) for c in analyze(files).calls)


def test_an_object_assigned_in_the_constructor_is_read_entry_by_entry() -> None:
    files = {
        "src/upstreams.js": """\
            const fetch = require('node-fetch')
            class Upstreams {
              constructor() {
                this.hosts = { reviews: process.env.REVIEWS_HOST, ratings: { base: process.env.RATINGS_URL } }
              }
              async reviews(id) { return (await fetch(`http://${this.hosts.reviews}:9080/reviews/${id}`)).json() }
              async stars(id) { return fetch(this.hosts.ratings.base + '/stars/' + id, { method: 'PUT' }) }
            }
            module.exports = Upstreams
            """,
    }
    assert _calls(files) == [
        ("GET", "http://${REVIEWS_HOST}:9080/reviews/{?id}"),
        ("PUT", "${RATINGS_URL}/stars/{?id}"),
    ]


def test_a_typescript_class_property_object_and_a_vendor_host_in_it() -> None:
    files = {
        "src/stock.service.ts": """\
            import axios from 'axios';
            export class StockGateway {
              private readonly urls = { stock: process.env.STOCK_URL ?? 'http://stock:7000', tax: 'https://api.taxes.example' };
              level(sku: string) { return axios.get(`${this.urls.stock}/levels/${sku}`); }
              rate() { return axios.get(this.urls.tax + '/v2/rates'); }
            }
            """,
    }
    assert _calls(files) == [
        ("GET", "${STOCK_URL:http://stock:7000}/levels/{?sku}"),
        ("GET", "https://api.taxes.example/v2/rates"),
    ]


def test_an_entry_built_from_a_constructor_argument_is_filled_where_it_is_constructed() -> None:
    files = {
        "src/orders.js": """\
            const axios = require('axios')
            class OrdersClient {
              constructor(base) { this.urls = { orders: `${base}/orders` } }
              list() { return axios.get(this.urls.orders) }
            }
            module.exports = new OrdersClient(process.env.ORDERS_BASE)
            """,
    }
    assert _calls(files) == [("GET", "${ORDERS_BASE}/orders")]


def test_an_entry_the_object_does_not_hold_stays_one_gap() -> None:
    files = {
        "src/hub.js": """\
            const axios = require('axios')
            class Hub {
              constructor() { this.targets = { a: process.env.A_URL } }
              go() { return axios.get(this.targets.b + '/x') }
            }
            module.exports = Hub
            """,
    }
    assert _calls(files) == [("GET", "{?this.targets.b}/x")]
