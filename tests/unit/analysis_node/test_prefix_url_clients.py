"""HTTP client instances whose base URL is a ``prefixUrl`` (got's ``extend``, ky's ``create`` and
``extend``): the input is written without a leading slash and the client puts one between them."""

from __future__ import annotations

from .support import analyze, url


def calls(text: str) -> list[tuple[str, str | None, str | None]]:
    return sorted((c.client, c.method, url(c.url)) for c in analyze({"src/clients.ts": text}).calls)


def test_ky_and_got_instances_join_their_prefix_with_a_slash():
    text = """\
        import ky from 'ky';
        import got from 'got';
        const cart = ky.create({ prefixUrl: process.env.CART_URL });
        const ledger = got.extend({ prefixUrl: 'http://ledger:5000/api/' });
        export const items = () => cart.get('cart/items').json();
        export const entries = () => ledger.post('entries', { json: {} });
        """
    assert calls(text) == [
        ("got", "POST", "http://ledger:5000/api/entries"),
        ("ky", "GET", "${CART_URL}/cart/items"),
    ]


def test_an_axios_base_url_is_joined_as_written():
    text = """\
        import axios from 'axios';
        const api = axios.create({ baseURL: 'http://stock:8080' });
        export const levels = () => api.get('/levels');
        """
    assert calls(text) == [("axios", "GET", "http://stock:8080/levels")]


def test_ky_without_an_instance_is_a_plain_call():
    text = """\
        import ky from 'ky';
        export const one = () => ky.get('http://tax:7000/rates').json();
        """
    assert calls(text) == [("ky", "GET", "http://tax:7000/rates")]
