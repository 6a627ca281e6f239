"""Entities of one service's raw-driver persistence (see stores.py), linked across its files.

A use counts only when the service imports a driver of that kind of store: `db.collection("x")`
in a service with the `mongodb` package is a MongoDB collection, in one with `firebase-admin` a
Firestore one, in one with neither nothing. A Redis command on a client imported from another
file counts when that file made the client. One entity per name, at its first use; names an ORM
of the service already declares for the same kind of store are left to the ORM's entity (a SQL
table named like a Mongoose model's collection is another entity).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..facts import Expr, RawEntity
from ..resolution.storenames import key_name, literal_lead
from . import library_stores
from .resolve import Resolver
from .stores import DOCUMENT_ENGINES, REDIS_COMMANDS, SQL_ENGINES

_KINDS = {
    "collection": "document_collection",
    "sql": "sql_table",
    "key": "key_value",
    "index": "search_index",
}


def store_entities(
    files: Mapping[str, dict[str, Any]], resolver: Resolver, declared: Iterable[tuple[str, str]] = ()
) -> list[RawEntity]:
    drivers = {d for data in files.values() for d in data.get("drivers", [])}
    document = _only(drivers & DOCUMENT_ENGINES)
    sql = _only(drivers & SQL_ENGINES)
    out: dict[tuple[str, str], RawEntity] = {}
    taken = set(declared)
    for file in sorted(files):
        data = files[file]
        for rec in data.get("stores", []):
            kind = rec["kind"]
            if kind in ("collection", "index"):  # DynamoDB tables and search indexes name their engine
                engine = rec.get("engine") or document
                named = rec.get("engine") or drivers & DOCUMENT_ENGINES
                names = [_exact(resolver.expr(file, rec["name"]))] if named else []
            elif kind == "sql":
                engine = rec.get("engine") or sql
                names = [p[1] for p in rec["name"]] if rec.get("engine") or drivers & SQL_ENGINES else []
            else:
                engine = rec.get("engine") or (
                    _redis_target(resolver, file, rec["recv"]) if rec.get("recv") else None
                )
                names = [key_name(resolver.expr(file, rec["name"]))] if engine else []
            framework = library_stores.FRAMEWORK if rec.get("library") else "driver"
            for name in names:
                if name and (_KINDS[kind], name) not in taken:
                    _add(
                        out,
                        RawEntity(
                            name, _KINDS[kind], file, rec["line"], rec["end"], None, (), engine, framework
                        ),
                    )
        for vcall in data.get("vcalls", []):  # `cache.get(key, cb)` on a client from another file
            if vcall.get("verb") in REDIS_COMMANDS and _redis_target(resolver, file, vcall["recv"]):
                name = key_name(resolver.expr(file, vcall.get("path")))
                if name and ("key_value", name) not in taken:
                    _add(
                        out,
                        RawEntity(
                            name, "key_value", file, vcall["line"], vcall["end"], None, (), "redis", "driver"
                        ),
                    )
    return sorted(out.values(), key=lambda e: (e.name, e.file, e.start_line))


def _add(out: dict[tuple[str, str], RawEntity], entity: RawEntity) -> None:
    key = (entity.kind, entity.name)
    if key not in out:
        out[key] = entity


def _only(engines: set[str]) -> str | None:
    return next(iter(engines)) if len(engines) == 1 else None


def _redis_target(resolver: Resolver, file: str, ref: list[Any]) -> str | None:
    target = resolver.resolve(file, ref)
    if target is not None and target[0] == "module":
        target = resolver.export(target[1], "default")
    if target is not None and target[0] == "obj" and target[3].get("t") == "store_client":
        return "redis" if target[3].get("engine") == "redis" else None
    return None


def _exact(expr: Expr | None) -> str | None:
    """A name built of literals and configuration defaults, else None (not known statically)."""
    text, dynamic = literal_lead(expr)
    return text if text and not dynamic else None
