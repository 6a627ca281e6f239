"""Databases a library keeps data in for the service: session stores, cache stores, rate-limit stores.

``new RedisStore({ client })`` of connect-redis, ``require("connect-redis")(session)``,
``CacheModule.register({ store: redisStore })`` with cache-manager-redis-store, ``caching(redisStore)``,
``new KeyvRedis(url)``: the service keeps data in that engine although its own code never issues a
command. The keys are the library's, computed at run time, so the store is the engine's keyspace
``*`` (no key family is invented). Only a USE counts — a call, a ``new``, the store handed over as a
value — never the import alone (an imported but unused store keeps nothing).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from ..facts import RawEntity
from .syntax import args_of, text, unwrap
from .values import value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

#: store-library packages -> the engine they keep their data in
STORE_LIBRARIES = {
    "connect-redis": "redis",
    "cache-manager-redis-store": "redis",
    "cache-manager-redis-yet": "redis",
    "cache-manager-ioredis": "redis",
    "cache-manager-ioredis-yet": "redis",
    "@tirke/node-cache-manager-ioredis": "redis",
    "@keyv/redis": "redis",
    "keyv-redis": "redis",
    "rate-limit-redis": "redis",
    "connect-mongo": "mongodb",
    "connect-mongodb-session": "mongodb",
    "@keyv/mongo": "mongodb",
    "connect-pg-simple": "postgres",
    "@keyv/postgres": "postgres",
    "express-mysql-session": "mysql",
    "@keyv/mysql": "mysql",
    "connect-sqlite3": "sqlite",
}
#: option keys that hand a store to a library (`session({ store })`, `CacheModule.register({ store })`)
STORE_KEYS = frozenset({"store", "stores"})
#: the framework tag of the entities recorded here (the linker keeps them from a used library file)
FRAMEWORK = "store-library"


def on_use(ex: Extractor, node: Node, callee: Node | None) -> None:
    """A call or `new` of a store library's export, and store-library values among its arguments."""
    _note(ex, node, callee)
    for arg in args_of(node):
        inner = unwrap(arg)
        if inner is not None and inner.type in ("identifier", "member_expression"):
            _note(ex, node, inner)


def on_pair(ex: Extractor, node: Node) -> None:
    """`store: redisStore` / `stores: [redisStore]`: a store library handed over as an option."""
    key = node.child_by_field_name("key")
    value = unwrap(node.child_by_field_name("value"))
    if key is None or value is None or text(key).strip("'\"") not in STORE_KEYS:
        return
    for item in value.named_children if value.type == "array" else [value]:
        inner = unwrap(item)
        if inner is not None and inner.type in ("identifier", "member_expression"):
            _note(ex, node, inner)


def _note(ex: Extractor, node: Node, ref_node: Node | None) -> None:
    inner = unwrap(ref_node)
    if inner is None or (not ex.store_libraries and inner.type != "call_expression"):
        return  # nothing imported from a store library in this file (`require(x)(y)` binds nothing)
    ref: list[Any] | None = value_ref(inner, ex.scope)
    if ref is None or ref[0] != "imp":
        return
    engine = STORE_LIBRARIES.get(ref[1] or "")
    if engine is None:
        return
    records = ex.out.setdefault("stores", [])
    if any(r["kind"] == "key" and r.get("library") and r["engine"] == engine for r in records):
        return  # one keyspace per engine and file is enough
    records.append(
        {"kind": "key", "name": [["lib", ref[1]]], "engine": engine, "library": True, **ex.where(node)}
    )


def without_known_engines(entities: list[RawEntity]) -> list[RawEntity]:
    """A library's keyspace says only which engine the service uses: left out when another entity of
    the service already names that engine."""
    named = {e.engine_hint for e in entities if e.framework != FRAMEWORK}
    return [e for e in entities if e.framework != FRAMEWORK or e.engine_hint not in named]
