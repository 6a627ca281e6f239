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

from orbitkb.sql import codec
from orbitkb.sql.rows import RowSource
from orbitkb.sql.snapshot import INITIAL, TOKEN_KEY
from orbitkb.sql.tables import schema_meta

T = TypeVar("T")

#: the snapshot token alone (when there is no row to read it with)
_TOKEN = sa.select(schema_meta.c.value).where(schema_meta.c.key == TOKEN_KEY)


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

    def newest(self, source: RowSource, limit: int) -> list[T]:
        """The ``limit`` newest rows, newest first, and the snapshot token (``basis`` then holds it),
        read in the source's one transaction."""
        ids = [row[0] for row in source.tuples(self._newest(max(limit, 0)))]
        token = source.tuples(_TOKEN)
        return self.of(source, ids, str((token[0][0] if token else None) or INITIAL))

    def _newest(self, limit: int) -> Any:
        """The ids, newest first (``Any``: SQLAlchemy types it as a tuple per column)."""
        found = self._statements.get(limit)  # built once per limit: asked on every answer
        if found is None:
            found = sa.select(self._table.c.id).order_by(self._table.c.id.desc()).limit(limit)
            self._statements[limit] = found
        return found

    def of(self, source: RowSource, ids: list[int], basis: str) -> list[T]:
        """The rows of ``ids`` in that order, read at the snapshot token ``basis``."""
        with self._lock:
            self.basis = basis
            if basis != self._basis:
                self._basis, self._kept = basis, {}
            missing = [i for i in ids if i not in self._kept]
            for chunk in codec.chunks(missing):
                for row in source.rows(self._rows_of, {"ids": chunk}):
                    self._kept[row["id"]] = codec.from_row(row, self._cls, self._json)
                    self.decoded += 1
            if len(self._kept) > len(ids):  # keep only what the window still shows
                self._kept = {i: self._kept[i] for i in ids if i in self._kept}
            return [self._kept[i] for i in ids if i in self._kept]
