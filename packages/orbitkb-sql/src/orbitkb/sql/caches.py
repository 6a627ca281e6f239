"""Key/value caches: per-file analysis results (AnalysisCache) and LLM answers."""

from __future__ import annotations

import importlib
import zlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.sql import codec
from orbitkb.sql.tables import analysis_cache, llm_cache
from orbitkb.sql.unit import UnitOfWork

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite


def _get_many(conn: Connection, table: sa.Table, keys: Sequence[str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for chunk in codec.chunks(sorted(set(keys))):
        statement = sa.select(table.c.key, table.c.value).where(table.c.key.in_(chunk))
        found.update({row.key: row.value for row in conn.execute(statement)})
    return found


#: The module of each dialect's INSERT … ON CONFLICT (the same construct on both), imported on the
#: first write: a read-only command on SQLite never loads the PostgreSQL dialect.
_UPSERTS = {"sqlite": "sqlalchemy.dialects.sqlite", "postgresql": "sqlalchemy.dialects.postgresql"}


def _upsert(conn: Connection, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    insert: postgresql.Insert | sqlite.Insert = importlib.import_module(_UPSERTS[conn.dialect.name]).insert(table)
    return insert


def _put_many(conn: Connection, table: sa.Table, items: Mapping[str, Any]) -> None:
    """Insert or replace, in key order: two writers of the same key at once (two repositories'
    indexers meeting one file content) both succeed — a delete then insert would fail the second on
    the key the first inserted meanwhile."""
    keys = sorted(items)
    if not keys:
        return
    insert = _upsert(conn, table)
    statement = insert.on_conflict_do_update(index_elements=[table.c.key], set_={"value": insert.excluded.value})
    conn.execute(statement, [{"key": k, "value": items[k]} for k in keys])


#: zlib level 1: ~5x smaller parse results for a few percent of the time parsing them took.
COMPRESSION_LEVEL = 1


def pack(value: str) -> bytes:
    return zlib.compress(value.encode("utf-8", "surrogatepass"), COMPRESSION_LEVEL)


def unpack(value: bytes | str) -> str:
    if isinstance(value, str):  # a row some tool wrote as text: still readable
        return value
    return zlib.decompress(value).decode("utf-8", "surrogatepass")


class SqlAnalysisCache:
    """AnalysisCache over the ``analysis_cache`` table, values zlib-compressed; each call is one
    transaction."""

    def __init__(self, db: UnitOfWork) -> None:
        self._db = db

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        if not keys:
            return {}
        with self._db.read() as conn:
            found: dict[str, str] = {}
            for key, value in _get_many(conn, analysis_cache, keys).items():
                try:
                    found[key] = unpack(value)
                except (zlib.error, UnicodeDecodeError):
                    continue  # a damaged row is a cache miss: the file is parsed again
            return found

    def put_many(self, items: Mapping[str, str]) -> None:
        if not items:
            return
        with self._db.write() as conn:
            _put_many(conn, analysis_cache, {k: pack(v) for k, v in items.items()})


def get_llm(conn: Connection, key: str) -> str | None:
    value = conn.execute(sa.select(llm_cache.c.value).where(llm_cache.c.key == key)).scalar()
    return None if value is None else str(value)


def put_llm(conn: Connection, key: str, value: str) -> None:
    _put_many(conn, llm_cache, {key: value})


#: The name this class had before the PostgreSQL store shared it.
SqliteAnalysisCache = SqlAnalysisCache
