"""Tables and collections opened by name in code: ``dynamoDB.getTable("orders")``,
``enhancedClient.table("orders", schema)``, ``database.getCollection("orders")``,
``mongoTemplate.findAll(Order.class, "orders")`` persist to them, and so do the tables of a
statement a ``JdbcTemplate`` runs; a schema built from a bean class (``TableSchema.fromBean(
Order.class)``) names the entity's class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import RawEntity
from orbitkb.analysis.jvm.evaluate import evaluate
from orbitkb.analysis.jvm.eventuate import class_literal
from orbitkb.analysis.jvm.syntax import Call, E
from orbitkb.analysis.jvm.tables import (
    REDIS_CLIENTS,
    REDIS_COMMANDS,
    REDIS_TEMPLATE_KEYS,
    REDIS_TEMPLATE_OPS,
    REDIS_TEMPLATES,
    STORE_HANDLES,
)
from orbitkb.analysis.resolution.storenames import key_name, tables_in

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
    from orbitkb.analysis.jvm.walking import Walker

_METHODS = {m for *_rest, methods in STORE_HANDLES.values() for m in methods}
_SCHEMA_FACTORIES = frozenset({"fromBean", "fromClass", "fromImmutableClass"})


def _schema_class(args: list[E]) -> str | None:
    """The class of a ``TableSchema.fromBean(X.class)`` argument after the table name."""
    for arg in args:
        if isinstance(arg, Call) and arg.name in _SCHEMA_FACTORIES and arg.args:
            name = class_literal(arg.args[0])
            return name.rsplit(".", 1)[-1] if name else None
    return None


def _redis_key(w: Walker, call: Call) -> bool:
    """``redis.opsForValue().set("cart:" + id, v)``, ``redis.delete(key)``, ``jedis.hset(key, ...)``."""
    recv = call.recv
    if isinstance(recv, Call) and recv.name in REDIS_TEMPLATE_OPS and recv.recv is not None:
        keyed = (w.recv_type(recv.recv) or "") in REDIS_TEMPLATES
    else:
        rtype = w.recv_type(recv) or "" if recv is not None else ""
        keyed = (rtype in REDIS_TEMPLATES and call.name in REDIS_TEMPLATE_KEYS) or (
            rtype in REDIS_CLIENTS and call.name in REDIS_COMMANDS
        )
    if keyed:
        w.add({"k": "store", "type": "redis", "name": evaluate(call.args[0], w.scope), "line": call.line,
               "end": call.end})  # fmt: skip
    return keyed


def detect(w: Walker, call: Call) -> None:
    if call.recv is None or not call.args or _redis_key(w, call) or call.name not in _METHODS:
        return
    rtype = w.recv_type(call.recv) or ""
    handle = STORE_HANDLES.get(rtype)
    if handle is None or call.name not in handle[3]:
        return
    index = handle[3][call.name]
    if len(call.args) <= index:
        return
    w.add(
        {
            "k": "store",
            "type": rtype,
            "name": evaluate(call.args[index], w.scope),
            "schema": _schema_class(call.args[index + 1 :]),
            "line": call.line,
            "end": call.end,
        }
    )


def entities(index: ServiceIndex, ref: ClassRef, site: dict[str, Any]) -> list[RawEntity]:
    """The entities a store site opens, when its name folds to text: the table or collection it
    names, or the tables of the SQL statement it runs, or a Redis key's space."""
    if site["type"] == "redis":
        space = key_name(index.resolve(site["name"], ref))
        return [RawEntity(space, "key_value", ref.path, site["line"], site["end"], engine_hint="redis",
                          framework="redis")] if space else []  # fmt: skip
    kind, engine, framework, _methods = STORE_HANDLES[site["type"]]
    value = index.resolve(site["name"], ref)
    text = value.literal() if value is not None else None
    if not text:
        return []
    names = tables_in(text) if kind == "sql_table" else [text]
    return [
        RawEntity(
            name=name,
            kind=kind,
            file=ref.path,
            start_line=site["line"],
            end_line=site["end"],
            class_name=site.get("schema"),
            engine_hint=engine,
            framework=framework,
        )
        for name in names
    ]
