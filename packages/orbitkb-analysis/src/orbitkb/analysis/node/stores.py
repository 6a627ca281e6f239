"""Persistence through raw database drivers: MongoDB/Firestore collections, Redis keys, SQL tables.

No schema declares these: the names are read where the code uses them. ``db.collection("orders")``
names a document collection; ``client.set("session:" + id, ...)`` on a Redis client stores keys
with the prefix ``session`` (keys computed entirely at runtime are the keyspace ``*``);
``pool.query("SELECT ... FROM orders")`` on a SQL client names the tables its statement touches.
Each use is recorded at parse time; the linker keeps those of a service that imports the driver
(a `.collection()` or `.query()` in a service without one is something else) and resolves names
built from constants in other files.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import dotted, string_value, unwrap
from .values import fold, resolve_binding, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

# Driver packages -> the engine they talk to; an import of one makes the service a client of it.
DRIVER_MODULES = {
    "mongodb": "mongodb",
    "mongoose": "mongodb",
    "mongojs": "mongodb",
    "monk": "mongodb",
    "firebase-admin": "firestore",
    "firebase-admin/firestore": "firestore",
    "@google-cloud/firestore": "firestore",
    "redis": "redis",
    "ioredis": "redis",
    "@redis/client": "redis",
    "pg": "postgres",
    "pg-promise": "postgres",
    "postgres": "postgres",
    "@neondatabase/serverless": "postgres",
    "mysql": "mysql",
    "mysql2": "mysql",
    "mysql2/promise": "mysql",
    "mariadb": "mariadb",
    "mssql": "sqlserver",
    "tedious": "sqlserver",
    "sqlite3": "sqlite",
    "better-sqlite3": "sqlite",
}
DOCUMENT_ENGINES = frozenset({"mongodb", "firestore"})
SQL_ENGINES = frozenset({"postgres", "mysql", "mariadb", "sqlserver", "sqlite"})

# Client constructors and factories: (module, member path) -> engine of the client they make.
CLIENTS = {
    ("redis", "createClient"): "redis",
    ("redis", "createCluster"): "redis",
    ("@redis/client", "createClient"): "redis",
    ("ioredis", ""): "redis",
    ("ioredis", "default"): "redis",
    ("ioredis", "Redis"): "redis",
    ("ioredis", "Cluster"): "redis",
    ("pg", "Pool"): "postgres",
    ("pg", "Client"): "postgres",
    ("mysql", "createPool"): "mysql",
    ("mysql", "createConnection"): "mysql",
    ("mysql2", "createPool"): "mysql",
    ("mysql2", "createConnection"): "mysql",
    ("mysql2/promise", "createPool"): "mysql",
    ("mysql2/promise", "createConnection"): "mysql",
    ("mariadb", "createPool"): "mariadb",
    ("mariadb", "createConnection"): "mariadb",
}
# Declared types of injected or annotated clients (`constructor(private redis: Redis)`).
CLIENT_TYPES = {"Redis": "redis", "RedisClientType": "redis", "PoolClient": "postgres"}

# Redis commands that read or write a key (the key is their first argument).
REDIS_COMMANDS = frozenset(
    {
        "get", "set", "setex", "setnx", "psetex", "getset", "getdel", "getex", "append", "del",
        "unlink", "exists", "expire", "pexpire", "expireat", "ttl", "persist", "incr", "incrby",
        "incrbyfloat", "decr", "decrby", "hget", "hset", "hsetnx", "hmset", "hmget", "hgetall",
        "hdel", "hincrby", "hkeys", "hvals", "hexists", "hlen", "lpush", "rpush", "lpop", "rpop",
        "lrange", "llen", "lrem", "ltrim", "sadd", "srem", "smembers", "sismember", "scard",
        "zadd", "zrem", "zrange", "zrevrange", "zrangebyscore", "zscore", "zincrby", "zcard",
        "pfadd", "geoadd", "json.set", "json.get",
        "hSet", "hGet", "hGetAll", "hDel", "hIncrBy", "hmGet", "lPush", "rPush", "lRange", "sAdd",
        "sMembers", "zAdd", "zRange", "setEx", "setNX", "incrBy", "decrBy", "getDel",
    }
)  # fmt: skip
# Methods that run a SQL statement given as their first argument (pg, mysql, mssql, pg-promise).
SQL_METHODS = frozenset(
    {
        "query",
        "execute",
        "none",
        "one",
        "oneOrNone",
        "many",
        "manyOrNone",
        "any",
        "result",
        "run",
        "all",
        "prepare",
    }
)
_DML = re.compile(r"^\s*(?:\(\s*)?(select|insert|update|delete|with|replace|merge)\b", re.I)
_TABLE = re.compile(
    r"\b(?:from|join|into|update|table)\s+((?:[`\"\[]?[A-Za-z_][\w$]*[`\"\]]?\.)?[`\"\[]?[A-Za-z_][\w$]*[`\"\]]?)\s*(\()?",
    re.I,
)
_NOT_TABLES = frozenset({"select", "lateral", "unnest", "only", "set", "values", "dual", "where", "exists"})


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    """`db.collection("x")`, `redis.set(key, v)`, `pool.query("SELECT ... FROM t")`."""
    first = unwrap(args[0]) if args else None
    if first is None:
        return False
    if prop == "collection" and len(args) <= 2 and first.type != "object":
        _record(ex, node, "collection", fold(first, ex.scope))
        return False  # the chain goes on (`.find()`, `.insertOne()`): nothing else to recognise here
    binding = _client(ex, receiver)
    engine = binding.get("engine") if binding is not None else None
    if prop in SQL_METHODS:
        sql = _statement(ex, first)
        if sql is not None:
            tables = tables_in(sql)
            if tables:
                _record(
                    ex, node, "sql", [["lit", t] for t in tables], engine if engine in SQL_ENGINES else None
                )
                return True
    if prop in REDIS_COMMANDS and first.type != "object":
        if engine == "redis":
            _record(ex, node, "key", fold(first, ex.scope), "redis")
            return True
        ref = value_ref(receiver, ex.scope) if binding is None else None
        if (
            ref is not None
            and ref[0] in ("imp", "this", "member")
            and not (ref[0] == "imp" and not _local(ref))
        ):
            _record(ex, node, "key", fold(first, ex.scope), None, recv=ref)  # decided by the linker
    return False


def client_binding(ex: Extractor, where: tuple[str, str] | None) -> dict[str, Any] | None:
    """The binding of `redis.createClient(...)`, `new Redis()`, `new Pool()`, `mysql.createPool()`."""
    engine = CLIENTS.get(where) if where else None
    return {"k": "obj", "t": "store_client", "engine": engine} if engine else None


def _client(ex: Extractor, receiver: Node) -> dict[str, Any] | None:
    name = dotted(receiver)
    binding = resolve_binding(name, ex.scope) if name else None
    if binding is None:
        return None
    if binding.get("t") == "store_client":
        return binding
    if binding.get("k") == "type" and CLIENT_TYPES.get(binding.get("name", "")):
        return {"engine": CLIENT_TYPES[binding["name"]]}
    return None


def _local(ref: list[Any]) -> bool:
    spec = ref[1] or ""
    return spec.startswith((".", "@/", "~/", "src/"))


def _statement(ex: Extractor, node: Node) -> str | None:
    """The SQL text of a query argument: a string, a template (`${}` holes as `?`), a constant."""
    if node.type == "template_string":
        raw = "".join(
            "?"
            if c.type == "template_substitution"
            else (string_value(c) or (c.text or b"").decode("utf-8", "replace"))
            for c in node.named_children
        )
    elif node.type == "object":
        return None
    else:
        raw = "".join(p[1] if p[0] == "lit" else "?" for p in fold(node, ex.scope))
    return raw if _DML.match(raw) else None


def tables_in(sql: str) -> list[str]:
    """Tables a DML statement reads or writes: `FROM a JOIN b`, `INSERT INTO c`, `UPDATE d`."""
    out: list[str] = []
    for match in _TABLE.finditer(sql):
        if match.group(2):  # `FROM unnest(...)`, `INTO x (a, b)` is handled below
            if not re.search(r"\binto\s+$", sql[: match.start(1)], re.I):
                continue
        name = match.group(1).rsplit(".", 1)[-1].strip('`"[]')
        if name.lower() in _NOT_TABLES or name == "?" or name in out:
            continue
        out.append(name)
    return out


def _record(
    ex: Extractor, node: Node, kind: str, name: list[Any], engine: str | None = None, **extra: Any
) -> None:
    if not name:
        return
    ex.out.setdefault("stores", []).append(
        {"kind": kind, "name": name, "engine": engine, **extra, **ex.where(node)}
    )
