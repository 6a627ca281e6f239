"""Persistence through raw database drivers: MongoDB/Firestore collections, Redis keys, SQL tables.

No schema declares these: the names are read where the code uses them. ``db.collection("orders")``
names a document collection; ``client.set("session:" + id, ...)`` on a Redis client stores keys
with the prefix ``session`` (keys computed entirely at runtime are the keyspace ``*``);
``pool.query("SELECT ... FROM orders")`` on a SQL client names the tables its statement touches,
and so does a statement handed to a project's own helper (``runSql(`SELECT * FROM orders WHERE
id = $1`)``) when it reads as SQL beyond doubt (upper-case keywords, or bind parameters).
A request object naming a ``TableName`` (``new PutCommand({ TableName: "orders" })``, a v2
DocumentClient's ``put({ TableName })``) is a DynamoDB table; ``es.search({ index: "products" })`` on
an Elasticsearch/OpenSearch client a search index. Each use is recorded at parse time; the linker
keeps those of a service that imports the driver (a `.collection()` or `.query()` in a service
without one is something else) and resolves names built from constants in other files.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import dotted, object_pairs, string_value, text, unwrap
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
    ("@elastic/elasticsearch", "Client"): "elasticsearch",
    ("@opensearch-project/opensearch", "Client"): "opensearch",
}
SEARCH_ENGINES = frozenset({"elasticsearch", "opensearch"})
# Knex: how it is made, the `client` option -> engine, and the builder methods that take a table name.
KNEX_FACTORIES = frozenset({"", "default", "knex", "Knex"})
KNEX_CLIENTS = {
    "pg": "postgres", "postgres": "postgres", "postgresql": "postgres", "pgnative": "postgres",
    "mysql": "mysql", "mysql2": "mysql", "sqlite3": "sqlite", "better-sqlite3": "sqlite",
    "mssql": "sqlserver", "oracledb": "oracle", "cockroachdb": "cockroachdb",
}  # fmt: skip
KNEX_TABLE_METHODS = frozenset(
    {"from", "into", "table", "createTable", "createTableIfNotExists", "alterTable", "dropTableIfExists"}
)
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
# Argument shapes a statement can have: a literal, a template, a constant or a concatenation.
_TEXTUAL = frozenset({"string", "template_string", "identifier", "member_expression", "binary_expression"})
# A statement passed to a plain function: SQL beyond doubt, not a sentence ("Select a file from disk").
_SQL_KEYWORDS = re.compile(
    r"^\s*(?:SELECT\b.*\bFROM|INSERT\s+INTO|UPDATE\s+\S+\s+SET|DELETE\s+FROM|WITH\s+\w+\s+AS)\b", re.S
)
_SQL_PARAMS = re.compile(r"\$\d+|\?|\B:\w+\b|\bwhere\s+\w+\s*(?:=|<|>|in\b|like\b)", re.I)


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    """`db.collection("x")`, `redis.set(key, v)`, `pool.query("SELECT ... FROM t")`."""
    first = unwrap(args[0]) if args else None
    if first is None:
        return False
    if prop == "collection" and len(args) <= 2 and first.type != "object":
        _record(ex, node, "collection", fold(first, ex.scope))
        return False  # the chain goes on (`.find()`, `.insertOne()`): nothing else to recognise here
    if _dynamo_table(ex, node, first):
        return True
    binding = _client(ex, receiver)
    engine = binding.get("engine") if binding is not None else None
    if engine in SEARCH_ENGINES and first.type == "object" and "index" in object_pairs(first):
        _record(ex, node, "index", fold(object_pairs(first)["index"], ex.scope), engine)
        return True
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


def on_new(ex: Extractor, node: Node, ctor: str, args: list[Node]) -> bool:
    """AWS SDK v3 DynamoDB commands: ``new PutCommand({ TableName: "orders", Item })``."""
    return ctor.endswith("Command") and bool(args) and _dynamo_table(ex, node, unwrap(args[0]))


def _dynamo_table(ex: Extractor, node: Node, arg: Node | None) -> bool:
    if arg is None or arg.type != "object":
        return False
    pairs = object_pairs(arg)
    if "TableName" not in pairs:
        return False
    _record(ex, node, "collection", fold(pairs["TableName"], ex.scope), "dynamodb")
    return True


def on_plain_call(ex: Extractor, node: Node, args: list[Node]) -> None:
    """`runSql("SELECT * FROM orders WHERE id = $1")`: a project's own query helper; the linker keeps
    it only in a service that imports a SQL driver."""
    first = unwrap(args[0]) if args else None
    if first is None or first.type not in _TEXTUAL:
        return  # most calls pass callbacks, objects or calls: nothing to fold
    sql = _statement(ex, first)
    if sql is not None and (_SQL_KEYWORDS.match(sql) or _SQL_PARAMS.search(sql)):
        _record(ex, node, "sql", [["lit", t] for t in tables_in(sql)])


def client_binding(
    ex: Extractor, where: tuple[str, str] | None, args: list[Node] | None = None
) -> dict[str, Any] | None:
    """The binding of `redis.createClient(...)`, `new Redis()`, `new Pool()`, `mysql.createPool()`,
    and of a Knex instance (`knex({ client: "pg" })`: its engine is the client it names)."""
    if where is not None and where[0] == "knex" and where[1] in KNEX_FACTORIES:
        opts = object_pairs(unwrap(args[0])) if args else {}
        client = (
            "".join(p[1] for p in fold(opts["client"], ex.scope) if p[0] == "lit") if "client" in opts else ""
        )
        return {"k": "obj", "t": "store_client", "engine": KNEX_CLIENTS.get(client.lower()), "knex": True}
    engine = CLIENTS.get(where) if where else None
    return {"k": "obj", "t": "store_client", "engine": engine} if engine else None


def on_query_builder(ex: Extractor, node: Node, fn: Node, args: list[Node]) -> bool:
    """Knex: `db("invoices")`, `db.select("*").from("invoices")`, `db.insert(row).into("lines")`,
    `db.schema.createTable("ledgers", ...)` on a Knex instance name a table."""
    first = unwrap(args[0]) if args else None
    if first is None or first.type not in ("string", "template_string", "identifier", "member_expression"):
        return False
    if fn.type == "member_expression":
        if text(fn.child_by_field_name("property")) not in KNEX_TABLE_METHODS:
            return False
        root = fn.child_by_field_name("object")
        while root is not None and root.type in ("call_expression", "member_expression"):
            root = root.child_by_field_name("function" if root.type == "call_expression" else "object")
    else:
        root = fn
    name = dotted(root) if root is not None else None
    binding = resolve_binding(name, ex.scope) if name else None
    if binding is None or not binding.get("knex"):
        return False
    table = fold(first, ex.scope)
    if table and all(p[0] == "lit" for p in table):
        _record(
            ex, node, "sql", [["lit", "".join(p[1] for p in table).rsplit(".", 1)[-1]]], binding.get("engine")
        )
        return True
    return False


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
