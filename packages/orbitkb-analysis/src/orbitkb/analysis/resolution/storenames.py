"""Store names read from text any stack hands to a store: the tables of one SQL statement, and the
key space of a key expression (`"session:" + id` -> `session`). Shared by every analyzer, so that
no stack leans on another stack's package for them."""

from __future__ import annotations

import re

from orbitkb.analysis.facts import Env, Expr, Lit, Prop

_SEPARATORS = ":._-/|#"
KEYSPACE = "*"  # a Redis store whose keys are computed entirely at runtime

_STATEMENT = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|WITH|REPLACE|MERGE|ALTER|DROP)\b", re.I)
_TABLE = re.compile(
    r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE(?:\s+IF\s+(?:NOT\s+)?EXISTS)?)\s+"
    r"[`\"\[]?([A-Za-z_]\w*)[`\"\]]?(?:\.[`\"\[]?([A-Za-z_]\w*)[`\"\]]?)?(\s*\()?",
    re.I,
)
_AFTER_KEY = re.compile(r"\bKEY\s*$", re.I)
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
        if m.group(0)[:6].upper() == "UPDATE" and _AFTER_KEY.search(sql, 0, m.start()):
            continue  # MySQL's ``ON DUPLICATE KEY UPDATE col = ...`` names a column, not a table
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


def key_name(expr: Expr | None) -> str | None:
    """`"session:" + id` -> "session"; a literal key as written; a key with no literal lead -> "*"."""
    if expr is None:
        return None
    text, dynamic = literal_lead(expr)
    if not dynamic:
        return text or None
    return text.rstrip(_SEPARATORS) or KEYSPACE


def literal_lead(expr: Expr | None) -> tuple[str, bool]:
    """The literal text an expression starts with, and whether anything dynamic follows it."""
    out = []
    for part in expr.parts if expr is not None else ():
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, (Env, Prop)) and part.default is not None:
            out.append(part.default)
        else:
            return "".join(out), True
    return "".join(out), False
