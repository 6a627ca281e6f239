"""Rows that are never rewritten (change-surface runs, architecture runs), each decoded once.

A long-lived process reads the newest runs on every answer. A run's row never changes once
written, so it is decoded once, by id, and kept while the snapshot token stands (an index or a
restore moves it: after a restore an id may name another run). Each read still asks for the ids:
a new run, from any process, is in the next read, and on PostgreSQL a run given a lower id may
commit after a higher one — ids are never inferred from the highest seen.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.sql import codec
from orbitkb.sql.snapshot import INITIAL, TOKEN_KEY
from orbitkb.sql.tables import schema_meta

T = TypeVar("T")


class KeptRows(Generic[T]):
    """``KeptRows(table, cls, json_fields)``: the newest rows of ``table`` (an ``id`` primary key)
    as ``cls``; ``decoded`` counts the rows decoded (for tests and benchmarks)."""

    def __init__(self, table: sa.Table, cls: type[T], json_fields: Iterable[str]) -> None:
        self._table, self._cls, self._json = table, cls, tuple(json_fields)
        self._basis: str | None = None
        self._kept: dict[int, T] = {}
        self._lock = threading.Lock()
        self._statements: dict[int, Any] = {}
        #: the rows of a list of ids; built once (an expanding IN): a run recorded before each answer is read
        self._rows_of = codec.select_for(table, cls).where(table.c.id.in_(sa.bindparam("ids", expanding=True)))
        self.decoded = 0
        self.basis = INITIAL  # the snapshot token of the last read

    def newest(self, conn: Connection, limit: int) -> list[T]:
        """The ``limit`` newest rows, newest first, read with the snapshot token in one statement
        (``basis`` then holds that token)."""
        rows = conn.execute(self._newest(max(limit, 0))).all()
        if not rows:
            token = conn.execute(sa.select(schema_meta.c.value).where(schema_meta.c.key == TOKEN_KEY)).scalar()
            return self.of(conn, [], str(token or INITIAL))
        return self.of(conn, [r[0] for r in rows], str(rows[0][1] or INITIAL))

    def _newest(self, limit: int) -> Any:
        """The ids and the token, newest first (``Any``: SQLAlchemy types it as a tuple per column)."""
        found = self._statements.get(limit)  # built once per limit: asked on every answer
        if found is None:
            token = sa.select(schema_meta.c.value).where(schema_meta.c.key == TOKEN_KEY).scalar_subquery()
            found = sa.select(self._table.c.id, token).order_by(self._table.c.id.desc()).limit(limit)
            self._statements[limit] = found
        return found

    def of(self, conn: Connection, ids: list[int], basis: str) -> list[T]:
        """The rows of ``ids`` in that order, read at the snapshot token ``basis``."""
        with self._lock:
            self.basis = basis
            if basis != self._basis:
                self._basis, self._kept = basis, {}
            missing = [i for i in ids if i not in self._kept]
            for chunk in codec.chunks(missing):
                for row in conn.execute(self._rows_of, {"ids": list(chunk)}).all():
                    self._kept[row.id] = codec.from_row(row._mapping, self._cls, self._json)
                    self.decoded += 1
            if len(self._kept) > len(ids):  # keep only what the window still shows
                self._kept = {i: self._kept[i] for i in ids if i in self._kept}
            return [self._kept[i] for i in ids if i in self._kept]
