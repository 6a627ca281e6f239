"""Tables named in the SQL text a service hands to a raw driver (psycopg, pymysql, sqlite3,
asyncpg, the ``databases`` package, SQLAlchemy's ``text()``...): ``cur.execute("SELECT ... FROM
orders JOIN items ...")`` persists ``orders`` and ``items``. The engine comes from the driver the
connection was opened with, else (an untyped receiver in a service importing a driver) from the
service's configuration and manifests."""

from __future__ import annotations

import re

from orbitkb.analysis.facts import Lit, RawEntity
from orbitkb.analysis.python.ir import describe
from orbitkb.analysis.python.linkctx import LinkState, to_expr
from orbitkb.analysis.python.signatures import SQL_DRIVER_LIBS, SQL_EXEC_METHODS, SQL_TEXT_WRAPPERS

_STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|WITH|REPLACE|MERGE|ALTER|DROP)\b", re.I)
_TABLE = re.compile(
    r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)\s+"
    r"[`\"\[]?([A-Za-z_]\w*)[`\"\]]?(?:\.[`\"\[]?([A-Za-z_]\w*)[`\"\]]?)?(\s*\()?",
    re.I,
)
HOLE = "\x00"  # stands for a piece of the statement that could not be folded
_NOT_TABLES = frozenset({"select", "lateral", "dual", "only", "set", "values", "where", "unnest"})
_SYSTEM_SCHEMAS = frozenset({"information_schema", "pg_catalog", "sys", "mysql"})


_LEADING_COMMENTS = re.compile(r"^(?:\s*(?:--[^\n]*(?:\n|$)|/\*.*?\*/))+", re.S)


def tables_in(sql: str) -> list[str]:
    """Table names of one SQL statement, in order of appearance; comments before it (sqlc's
    ``-- name: CreateOrder :one``) are skipped."""
    sql = _LEADING_COMMENTS.sub("", sql, count=1)
    if not _STATEMENT.match(sql):
        return []
    out: list[str] = []
    for m in _TABLE.finditer(sql):
        first, second, call = m.group(1), m.group(2), m.group(3)
        if call and not m.group(0).upper().lstrip().startswith(("INTO", "TABLE")):
            continue  # FROM generate_series(...)
        if first.lower() in _SYSTEM_SCHEMAS or first.lower().startswith(("pg_", "sqlite_")):
            continue
        name = second or first
        after = m.end(2) if second else m.end(1)
        if sql[after : after + 1] == HOLE:
            continue  # ``audit_{suffix}``: only part of the name is known
        if name.lower() not in _NOT_TABLES and name not in out:
            out.append(name)
    return out


def collect(st: LinkState) -> list[RawEntity]:
    duck = bool(st.libs & SQL_DRIVER_LIBS)
    seen: dict[str, RawEntity] = {}
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in SQL_EXEC_METHODS:
            continue
        o = st.r.as_object(c["o"])
        fam = st.r.family(o) or ""
        if fam.startswith("sql:"):
            engine: str | None = fam[4:] or None
        elif not fam and duck and o["t"] in ("param", "bm", "unk", "ret"):
            engine = None
        else:
            continue
        statement = inv.arg(0, "query", "sql", "operation", "statement")
        if statement is not None and statement["t"] == "inst" and statement.get("a"):
            if describe(statement["c"]) in SQL_TEXT_WRAPPERS:
                statement = statement["a"][0]
        expr = to_expr(st.r, statement)
        if expr is None:
            continue
        sql = "".join(p.text if isinstance(p, Lit) else HOLE for p in expr.parts)
        for name in tables_in(sql):
            key = name.lower()
            if key not in seen:
                seen[key] = RawEntity(name, "sql_table", inv.path, inv.line, inv.end, None, (), engine, "sql")
    return list(seen.values())
