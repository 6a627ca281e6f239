"""Persistence entities with the name the database sees: SQLAlchemy declarative
(``__tablename__``, Column/mapped_column, ``Mapped[...]``) and ``Table("name", metadata, ...)``,
Flask-SQLAlchemy ``db.Model`` (snake_case default), SQLModel ``table=True``, Django models
(``Meta.db_table`` or ``<app_label>_<model>``), Beanie/MongoEngine documents, Elasticsearch /
OpenSearch DSL documents (``Index.name``), pymongo/motor collections used by name, redis keys
(``products:{id}`` is the ``products`` key space), Tortoise ORM and peewee models (``class Meta``)
and tables named in SQL handed to raw drivers (``sqltext``)."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.facts import Env, Expr, Lit, RawEntity, placeholder
from orbitkb.analysis.python import firestore, sqltext
from orbitkb.analysis.python.ir import Node, describe, literal
from orbitkb.analysis.python.linkctx import LinkState, to_expr
from orbitkb.analysis.python.messaging import read_back
from orbitkb.analysis.python.signatures import (
    DJANGO_CACHE_BACKENDS,
    DJANGO_ENGINES,
    DJANGO_MODEL_BASES,
    DJANGO_NON_COLUMNS,
    META_TABLE_MODELS,
    MONGO_DOCUMENTS,
    NAMED_STORE_CALLS,
    PEEWEE_DATABASES,
    REDIS_DUCK_COMMANDS,
    REDIS_KEY_COMMANDS,
    REDIS_LIBS,
    SEARCH_DOCUMENTS,
    SQLA_COLUMNS,
    SQLA_TABLES,
    SQLMODEL_BASES,
    STORE_MODELS,
    VECTOR_STORES,
)
from orbitkb.domain.engines import RELATIONAL_ENGINES

Field = tuple[str, str, bool | None, bool]
_SNAKE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def snake(name: str) -> str:
    return _SNAKE.sub("_", name).lower()


def _ann(ann: str | None) -> tuple[str, bool]:
    """(type, nullable) from ``Mapped[Optional[int]]``, ``str | None``, ``Optional[str]``..."""
    if not ann:
        return "", False
    s = ann.strip()
    if s.startswith("Mapped[") and s.endswith("]"):
        s = s[7:-1]
    nullable = "Optional[" in s or "None" in s.replace(" ", "").split("|")
    for wrap in ("Optional[", "typing.Optional["):
        if s.startswith(wrap) and s.endswith("]"):
            s = s[len(wrap) : -1]
    s = "|".join(p for p in (x.strip() for x in s.split("|")) if p != "None")
    return s, nullable


def _truthy(node: Node | None) -> bool:
    return literal(node) in ("true", "True", "1")


def collect(st: LinkState) -> list[RawEntity]:
    out: list[RawEntity] = []
    engine = _django_engine(st)
    labels = _app_labels(st)
    for path in sorted(st.files):
        for qual, info in st.files[path]["classes"].items():
            ent = _class_entity(st, path, qual, info, engine, labels)
            if ent is not None:
                out.append(ent)
    out.extend(_tables(st))
    out.extend(_collections(st))
    out.extend(firestore.collections(st))
    out.extend(_redis_keys(st))
    out.extend(_django_caches(st))
    out.extend(_vector_stores(st))
    out.extend(_named_stores(st))
    named: dict[str, set[str | None]] = {}
    for e in out:
        named.setdefault(e.name.lower(), set()).add(e.engine_hint)
    out.extend(e for e in sqltext.collect(st) if _another_store(e, named.get(e.name.lower())))
    return out


#: engines whose SQL text may name the table an ORM model of unstated engine maps (the same store)
_RELATIONAL = frozenset(RELATIONAL_ENGINES)


def _another_store(found: RawEntity, engines: set[str | None] | None) -> bool:
    """A table named in raw SQL text is its own entity unless a model of that name is already one:
    the same table, except when the driver says a non-relational engine no such model stands for
    (CQL handed to a Cassandra session beside a SQLAlchemy model of a PostgreSQL table)."""
    if engines is None:
        return True
    hint = found.engine_hint
    return hint is not None and hint not in _RELATIONAL and hint not in engines


def _class_entity(
    st: LinkState, path: str, qual: str, info: dict[str, Any], engine: str | None, labels: dict[str, str]
) -> RawEntity | None:
    c = {"t": "cls", "p": path, "n": qual}
    local, external = st.r.ancestors(c)
    name = qual.rsplit(".", 1)[-1]
    attrs = info["attrs"]

    def make(
        table: str, kind: str, fields: list[Field], framework: str, hint: str | None = None
    ) -> RawEntity:
        return RawEntity(table, kind, path, info["dl"], info["e"], name, tuple(fields), hint, framework)

    if external & DJANGO_MODEL_BASES:
        meta = {k: st.r.ev(v) for k, v in info["inner"].get("Meta", {}).items()}
        if _truthy(meta.get("abstract")) or _truthy(meta.get("proxy")):
            return None
        table = literal(meta.get("db_table"))
        if not table:
            label = (
                literal(meta.get("app_label"))
                or labels.get(_app_dir(path))
                or _app_dir(path).rsplit("/", 1)[-1]
            )
            table = f"{label}_{name.lower()}"
        fields = [f for cls in reversed(local) for f in _django_fields(st, cls)]
        return make(table, "sql_table", fields, "django", engine)
    tablename = literal(st.r.ev(attrs["__tablename__"])) if "__tablename__" in attrs else None
    if external & SQLMODEL_BASES or any(describe(b).endswith("SQLModel") for b in info["b"]):
        if not _truthy(st.r.ev(info["kw"]["table"])) if "table" in info["kw"] else True:
            return None
        return make(tablename or name.lower(), "sql_table", _sqlmodel_fields(info), "sqlmodel")
    for q, framework in MONGO_DOCUMENTS.items():
        if q in external:
            coll = (
                literal(st.r.ev(info["inner"].get("Settings", {}).get("name")))
                if "Settings" in info["inner"]
                else None
            )
            doc_meta = st.r.ev(attrs["meta"]) if "meta" in attrs else None
            if doc_meta is not None and doc_meta["t"] == "dict":
                coll = coll or literal(doc_meta["v"].get("collection"))
            default = snake(name) if framework == "mongoengine" else name
            return make(coll or default, "document_collection", [], framework, "mongodb")
    for q, (framework, keys) in META_TABLE_MODELS.items():
        if q in external:
            return _meta_table_model(st, path, qual, info, local, framework, keys)
    for q, (framework, kind, store, (inner, key)) in STORE_MODELS.items():
        if q in external:  # PynamoDB, cqlengine, redis-om models
            named = _inner_literal(st, info, inner, key) if inner else (
                literal(st.r.ev(attrs[key])) if key in attrs else None
            )
            default = snake(name) if framework == "cqlengine" else name
            return make(named or default, kind, [], framework, store)
    for q, (framework, search_engine) in SEARCH_DOCUMENTS.items():
        if q in external:
            index = _inner_literal(st, info, "Index", "name") or _inner_literal(st, info, "Meta", "index")
            return make(index or snake(name), "search_index", [], framework, search_engine)
    if _truthy(st.r.ev(attrs["__abstract__"])) if "__abstract__" in attrs else False:
        return None
    fields = _sqla_fields(info)
    if tablename:
        return make(tablename, "sql_table", fields, "sqlalchemy")
    if fields and any(describe(b).endswith(".Model") for b in info["b"]) and "flask_sqlalchemy" in st.libs:
        return make(snake(name), "sql_table", fields, "flask-sqlalchemy")
    return None


def _meta_table_model(
    st: LinkState, path: str, qual: str, info: dict[str, Any], local: list[Node], framework: str,
    keys: tuple[str, ...],
) -> RawEntity | None:
    """A Tortoise ORM or peewee model: its table from ``class Meta``, its engine from a peewee
    ``Meta.database`` (inherited from a base model); an abstract model, or a base model other
    models extend without a table of its own, is no entity."""
    metas = [{k: st.r.ev(v) for k, v in st.r.class_info(c)["inner"].get("Meta", {}).items()} for c in local]
    own = metas[0] if metas else {}
    if _truthy(own.get("abstract")):
        return None
    table = next((literal(own.get(k)) for k in keys if literal(own.get(k))), None)
    if table is None and framework == "peewee" and _extended(st, path, qual):
        return None  # ``class BaseModel(Model): class Meta: database = db``
    database = next((m["database"] for m in metas if "database" in m), None)
    hint = PEEWEE_DATABASES.get(database["c"]["q"]) if database and database["t"] == "inst" and database["c"]["t"] == "ext" else None
    name = qual.rsplit(".", 1)[-1]
    return RawEntity(table or name.lower(), "sql_table", path, info["dl"], info["e"], name, (), hint, framework)


def _extended(st: LinkState, path: str, qual: str) -> bool:
    """True when another class of the service names this one as a base."""
    for p in st.files:
        for q, info in st.files[p]["classes"].items():
            if (p, q) == (path, qual):
                continue
            for b in info["b"]:
                bv = st.r.ev(b)
                if bv["t"] == "cls" and (bv["p"], bv["n"]) == (path, qual):
                    return True
    return False


def _inner_literal(st: LinkState, info: dict[str, Any], inner: str, attr: str) -> str | None:
    """A literal attribute of an inner class (``class Index: name = "orders"``)."""
    node = info["inner"].get(inner, {}).get(attr)
    return literal(st.r.ev(node)) if node is not None else None


def _django_fields(st: LinkState, c: Node) -> list[Field]:
    out: list[Field] = []
    for f in st.r.class_info(c)["fields"]:
        call = f.get("c", "")
        if not call or not (call.endswith("Field") or call in ("ForeignKey",)) or call in DJANGO_NON_COLUMNS:
            continue
        out.append((f["n"], call, bool(f.get("null", False)), bool(f.get("pk", False))))
    return out


def _sqla_fields(info: dict[str, Any]) -> list[Field]:
    out: list[Field] = []
    for f in info["fields"]:
        call = f.get("c")
        ann_type, ann_null = _ann(f.get("ann"))
        is_mapped = (f.get("ann") or "").startswith("Mapped[")
        if call in SQLA_COLUMNS:
            pk = bool(f.get("pk", False))
            if "nl" in f:
                nullable = bool(f["nl"])
            elif pk:
                nullable = False
            else:
                nullable = ann_null if is_mapped else True
            out.append((f["n"], f.get("ty") or ann_type, nullable, pk))
        elif call is None and is_mapped:
            out.append((f["n"], ann_type, ann_null, False))
    return out


def _sqlmodel_fields(info: dict[str, Any]) -> list[Field]:
    out: list[Field] = []
    for f in info["fields"]:
        if "ann" not in f or f.get("c") in ("Relationship",) or f["n"].startswith("_"):
            continue
        ann_type, ann_null = _ann(f["ann"])
        if ann_type.startswith(("List[", "list[", "ClassVar")):
            continue
        pk = bool(f.get("pk", False))
        nullable = bool(f["nl"]) if "nl" in f else (ann_null and not pk)
        out.append((f["n"], ann_type, nullable, pk))
    return out


def _tables(st: LinkState) -> list[RawEntity]:
    out = []
    for inv in st.invs:
        c = inv.callee
        q = describe(c)
        if not (q in SQLA_TABLES or (c["t"] == "bm" and c["n"] == "Table" and "flask_sqlalchemy" in st.libs)):
            continue
        name = literal(inv.arg(0, "name"))
        if not name:
            continue
        fields: list[Field] = []
        for col in inv.args[2:]:
            if col["t"] == "inst" and describe(col["c"]).rsplit(".", 1)[-1] == "Column" and col["a"]:
                cname = literal(col["a"][0])
                if cname:
                    ty = describe(col["a"][1]).rsplit(".", 1)[-1].rstrip("()") if len(col["a"]) > 1 else ""
                    pk = _truthy(col["k"].get("primary_key"))
                    nl = col["k"].get("nullable")
                    fields.append((cname, ty, _truthy(nl) if nl is not None else not pk, pk))
        out.append(
            RawEntity(name, "sql_table", inv.path, inv.line, inv.end, None, tuple(fields), None, "sqlalchemy")
        )
    return out


def _collections(st: LinkState) -> list[RawEntity]:
    seen: dict[str, RawEntity] = {}
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm":
            continue
        o = c["o"]
        if o["t"] != "inst" or st.r.family(o) != "mongo-coll":
            continue
        expr = to_expr(st.r, o.get("name"))
        name = expr.literal() if expr else None
        if name and name not in seen:
            seen[name] = RawEntity(
                name, "document_collection", inv.path, inv.line, inv.end, None, (), "mongodb", "pymongo"
            )
    return list(seen.values())


_KEY_SPACE = re.compile(r"^[A-Za-z][\w\-]*$")


def _redis_keys(st: LinkState) -> list[RawEntity]:
    """Key spaces of redis commands: the literal prefix before ``:`` of a key (``"cart:" + id``),
    or the whole literal key of a hash/set/list command. The client is a redis instance, or —
    when the service imports redis — any receiver of a command only redis has (``hgetall``).
    A redis instance whose keys are all computed at runtime (``cache.set(str(order_id), ...)``)
    stores the one key space ``*``, as in the other stacks: the store is known, its names are not."""
    seen: dict[str, RawEntity] = {}
    runtime: RawEntity | None = None
    duck = bool(st.libs & REDIS_LIBS)
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in REDIS_KEY_COMMANDS:
            continue
        o = st.r.as_object(c["o"])
        fam = st.r.family(o)
        if fam != "redis" and not (
            fam is None and duck and c["n"] in REDIS_DUCK_COMMANDS and o["t"] != "inst"
        ):
            continue
        if c["n"] in ("lpush", "rpush") and not read_back(st, inv.arg(0, "name")):
            continue  # a list only pushed to is a work queue (a message), not stored data
        expr = to_expr(st.r, inv.arg(0, "name", "key"))
        first = expr.parts[0] if expr is not None and expr.parts else None
        text = first.text if isinstance(first, Lit) else ""
        if ":" in text:
            name = text.split(":", 1)[0]
        elif expr is not None and expr.literal() is not None and REDIS_KEY_COMMANDS[c["n"]]:
            name = text
        else:
            if fam == "redis" and not text and runtime is None:
                runtime = RawEntity(
                    "*", "key_value", inv.path, inv.line, inv.end, None, (), "redis", "redis-py"
                )
            continue
        if _KEY_SPACE.match(name) and name not in seen:
            seen[name] = RawEntity(
                name, "key_value", inv.path, inv.line, inv.end, None, (), "redis", "redis-py"
            )
    return list(seen.values()) or ([runtime] if runtime is not None else [])


def _app_dir(path: str) -> str:
    """The Django app folder of a models module (``shop/orders/models.py`` or ``models/order.py``)."""
    parts = path.split("/")[:-1]
    if parts and parts[-1] == "models":
        parts = parts[:-1]
    return "/".join(parts)


def _app_labels(st: LinkState) -> dict[str, str]:
    """AppConfig.label overrides, by app folder."""
    out: dict[str, str] = {}
    for path in sorted(st.files):
        for info in st.files[path]["classes"].values():
            if "label" in info["attrs"] and any(describe(b).endswith("AppConfig") for b in info["b"]):
                label = literal(st.r.ev(info["attrs"]["label"]))
                if label:
                    out[path.rsplit("/", 1)[0] if "/" in path else ""] = label
    return out


def _named_stores(st: LinkState) -> list[RawEntity]:
    """Tables and indexes a client names in a call: boto3 DynamoDB (``resource.Table("orders")``,
    ``client.put_item(TableName="orders", ...)``) and Elasticsearch/OpenSearch (``es.index(index=
    "products", ...)``)."""
    out: dict[tuple[str, str], RawEntity] = {}
    for inv, (kind, engine, framework, (pos, key)) in st.method_calls(NAMED_STORE_CALLS):
        name = _configured_name(to_expr(st.r, inv.arg(pos, key)))
        if name and (kind, name) not in out:
            out[(kind, name)] = RawEntity(name, kind, inv.path, inv.line, inv.end, None, (), engine, framework)
    return list(out.values())


def _vector_stores(st: LinkState) -> list[RawEntity]:
    """LangChain vector stores: ``AlloyDBVectorStore.create_sync(engine, table_name=TABLE)`` keeps
    embeddings in that table of its database (a name read from the environment stays
    ``${NAME}`` for the fact builder to resolve from the deployment)."""
    out: dict[str, RawEntity] = {}
    for inv in st.invs:
        q = describe(inv.callee)
        spec = VECTOR_STORES.get(q) or VECTOR_STORES.get(q.rsplit(".", 1)[0])
        if spec is None:
            continue
        kind, engine, names = spec
        expr = to_expr(st.r, inv.arg(None, *names))
        name = _configured_name(expr)
        if name and name not in out:
            out[name] = RawEntity(name, kind, inv.path, inv.line, inv.end, None, (), engine, "langchain")
    return list(out.values())


def _configured_name(expr: Expr | None) -> str | None:
    """Literal text, with environment reads written ``${NAME}`` / ``${NAME:default}``."""
    if expr is None:
        return None
    out = []
    for part in expr.parts:
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, Env):
            out.append(placeholder(part.name, part.default))
        else:
            return None
    return "".join(out) or None


def _django_caches(st: LinkState) -> list[RawEntity]:
    """Django ``CACHES`` on Redis or Memcached: the store of each configured cache, its key space
    the cache's ``KEY_PREFIX`` (``*`` when it has none)."""
    out: list[RawEntity] = []
    for path in sorted(st.files):
        if "CACHES" not in st.files[path]["sym"]:
            continue
        caches = st.r.symbol(path, "CACHES")
        line = st.files[path].get("sln", {}).get("CACHES", 1)
        for cache in caches["v"].values() if caches["t"] == "dict" else ():
            if cache["t"] != "dict":
                continue
            engine = DJANGO_CACHE_BACKENDS.get(literal(cache["v"].get("BACKEND")) or "")
            if engine is not None:
                prefix = cache["v"].get("KEY_PREFIX")
                name = (literal(prefix) if prefix is not None else None) or "*"
                if all(e.name != name for e in out):
                    out.append(
                        RawEntity(name, "key_value", path, line, line, None, (), engine, "django-cache")
                    )
    return out


def _django_engine(st: LinkState) -> str | None:
    for path in sorted(st.files):
        if "DATABASES" not in st.files[path]["sym"]:
            continue
        dbs = st.r.symbol(path, "DATABASES")
        default = dbs["v"].get("default") if dbs["t"] == "dict" else None
        if default is not None and default["t"] == "dict":
            eng = literal(default["v"].get("ENGINE")) or ""
            for key, value in DJANGO_ENGINES.items():
                if eng.endswith(key):
                    return value
    return None
