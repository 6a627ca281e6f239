"""GraphQL servers calling REST services through ``RESTDataSource`` subclasses."""

from __future__ import annotations

from .support import analyze, url


def _calls(files: dict[str, str]) -> list[tuple[str | None, str | None, str]]:
    return sorted((c.method, url(c.url), c.client) for c in analyze(files).calls)


def test_class_field_base_and_relative_paths_typescript() -> None:
    files = {
        "src/sources/shipments.ts": """\
            import { RESTDataSource } from '@apollo/datasource-rest';

            export class ShipmentsAPI extends RESTDataSource {
              override baseURL = process.env.SHIPMENTS_URL ?? 'http://shipping:4100/';

              parcel(id: string) {
                return this.get(`parcels/${encodeURIComponent(id)}`);
              }

              book(input: object) {
                return this.post('/parcels', { body: input });
              }
            }
            """,
    }
    assert _calls(files) == [
        ("GET", "${SHIPMENTS_URL:http://shipping:4100/}parcels/{?id}", "RESTDataSource"),
        ("POST", "${SHIPMENTS_URL:http://shipping:4100/}parcels", "RESTDataSource"),
    ]


def test_constructor_base_without_trailing_slash_commonjs() -> None:
    files = {
        "datasources/members.js": """\
            const { RESTDataSource } = require('apollo-datasource-rest')

            class MembersAPI extends RESTDataSource {
              constructor() {
                super()
                this.baseURL = 'http://members:5005/v1'
              }

              async member(id) {
                return this.get('members/' + id)
              }

              async drop(id) {
                return this.delete(`members/${id}`)
              }
            }

            module.exports = MembersAPI
            """,
    }
    assert _calls(files) == [
        ("DELETE", "http://members:5005/v1/members/{?id}", "RESTDataSource"),
        ("GET", "http://members:5005/v1/members/{?id}", "RESTDataSource"),
    ]


def test_this_get_in_other_classes_is_not_a_call() -> None:
    files = {
        "src/registry.ts": """\
            import { EventEmitter } from 'events';

            export class Registry extends EventEmitter {
              private items = new Map<string, number>();
              get(key: string) { return this.items.get(key); }
              lookup(key: string) { return this.get(key); }
            }
            """,
        "src/local.ts": """\
            class RESTDataSource { get(path: string) { return path; } }
            export class Fake extends RESTDataSource {
              baseURL = 'http://nowhere:1/';
              one() { return this.get('x'); }
            }
            """,
    }
    assert _calls(files) == []
