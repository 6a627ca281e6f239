"""Tables and collections opened by name in code: ``dynamoDB.getTable("orders")``,
``enhancedClient.table("orders", schema)``, ``database.getCollection("orders")``,
``mongoTemplate.findAll(Order.class, "orders")`` and Elasticsearch's ``new SearchRequest("orders")``
persist to them, and so do the tables of a statement a ``JdbcTemplate`` runs; a schema built from
a bean class (``TableSchema.fromBean(Order.class)``) names the entity's class. JDBC statements,
the reactive SQL clients' queries and Hazelcast's ``getMap("orders")`` name theirs too; Redis keys
(templates, Jedis-style clients, Quarkus data sources' command groups) name a key space, and a
memcached client or a Hazelcast ``IMap`` stores under keys known only at run time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Env, Expr, ParseGap, Prop, RawEntity, Unknown
from orbitkb.analysis.jvm.evaluate import evaluate
from orbitkb.analysis.jvm.eventuate import class_literal
from orbitkb.analysis.jvm.resolve import render
from orbitkb.analysis.jvm.syntax import Call, E
from orbitkb.analysis.jvm.tables import (
    KEY_VALUE_CLIENTS,
    REDIS_CLIENTS,
    REDIS_COMMANDS,
    REDIS_DATA_SOURCE_GROUPS,
    REDIS_DATA_SOURCES,
    REDIS_TEMPLATE_KEYS,
    REDIS_TEMPLATE_OPS,
    REDIS_TEMPLATES,
    STORE_HANDLE_GETTERS,
    STORE_HANDLES,
    STORE_REQUEST_IMPORTS,
    STORE_REQUESTS,
)
from orbitkb.analysis.resolution.storenames import KEYSPACE, key_name, tables_in

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
    elif isinstance(recv, Call) and recv.name in REDIS_DATA_SOURCE_GROUPS and recv.recv is not None:
        keyed = (w.recv_type(recv.recv) or "") in REDIS_DATA_SOURCES
    else:
        rtype = w.recv_type(recv) or "" if recv is not None else ""
        keyed = (rtype in REDIS_TEMPLATES and call.name in REDIS_TEMPLATE_KEYS) or (
            rtype in REDIS_CLIENTS and call.name in REDIS_COMMANDS
        )
    if keyed:
        w.add({"k": "store", "type": "redis", "name": evaluate(call.args[0], w.scope), "line": call.line,
               "end": call.end})  # fmt: skip
    return keyed


def _key_value(w: Walker, call: Call) -> bool:
    """``sessions.set(key, 3600, value)`` on a memcached client, ``carts.put(id, cart)`` on a
    Hazelcast ``IMap``: the service stores there under keys computed at run time."""
    client = KEY_VALUE_CLIENTS.get(w.recv_type(call.recv) or "") if call.recv is not None else None
    if client is None or call.name not in client[2]:
        return False
    w.add({"k": "store", "type": "key_value", "engine": client[0], "framework": client[1],
           "line": call.line, "end": call.end})  # fmt: skip
    return True


def _request(w: Walker, call: Call) -> bool:
    """``new SearchRequest("orders")``: a request object naming the index it opens."""
    if not (call.new_ and call.name in STORE_REQUESTS and call.args):
        return False
    if not any(i.startswith(STORE_REQUEST_IMPORTS) for i in w.ctx.imports):
        return False
    w.add({"k": "store", "type": STORE_REQUESTS[call.name], "name": evaluate(call.args[0], w.scope),
           "schema": None, "line": call.line, "end": call.end})  # fmt: skip
    return True


def detect(w: Walker, call: Call) -> None:
    if _request(w, call) or _key_value(w, call):
        return
    if call.recv is None or not call.args or _redis_key(w, call) or call.name not in _METHODS:
        return
    recv = call.recv
    getter = STORE_HANDLE_GETTERS.get(recv.name) if isinstance(recv, Call) and not recv.new_ else None
    rtype = getter or w.recv_type(recv) or ""
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


def _configured(value: Expr | None) -> str | None:
    """``${orders.collection:orders}``: a name read from configuration (``@ConfigProperty``,
    ``@Value``, an environment variable), written so the fact builder resolves it after linking."""
    if value is None or not any(isinstance(p, (Prop, Env)) for p in value.parts):
        return None
    return None if any(isinstance(p, Unknown) for p in value.parts) else render(value)


def _partly_configured(value: Expr | None) -> bool:
    return value is not None and any(isinstance(p, (Prop, Env)) for p in value.parts)


def entities(
    index: ServiceIndex, ref: ClassRef, site: dict[str, Any], gaps: list[ParseGap] | None = None
) -> list[RawEntity]:
    """The entities a store site opens, when its name folds to text: the table or collection it
    names, or the tables of the SQL statement it runs, or a Redis key's space. A name or a statement
    held in configuration stays a placeholder the fact builder resolves; a statement mixing
    configuration with values computed at run time is a gap naming its expression."""
    if site["type"] == "redis":
        # a key nothing folds (a parameter, a value read at run time) is still a key the service stores
        space = key_name(index.resolve(site["name"], ref)) or KEYSPACE
        return [RawEntity(space, "key_value", ref.path, site["line"], site["end"], engine_hint="redis",
                          framework="redis")]  # fmt: skip
    if site["type"] == "key_value":
        return [RawEntity(KEYSPACE, "key_value", ref.path, site["line"], site["end"], engine_hint=site["engine"],
                          framework=site["framework"])]  # fmt: skip
    kind, engine, framework, _methods = STORE_HANDLES[site["type"]]
    value = index.resolve(site["name"], ref)
    text = value.literal() if value is not None else None
    configured = _configured(value) if not text else None
    if not text and configured is None:
        if kind == "sql_table" and gaps is not None and _partly_configured(value):
            gaps.append(ParseGap(ref.path, "unsupported",
                                 f"line {site['line']}: SQL text partly held in configuration: {render(value)}"))  # fmt: skip
        return []
    names = [configured] if configured else tables_in(text or "") if kind == "sql_table" else [text or ""]
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
