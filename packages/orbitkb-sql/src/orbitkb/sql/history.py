"""The change history read at once (``RunLog.change_history``), its runs decoded once per process.

Every change surface reads up to 500 past runs and their task vectors. The run log only grows, and
a run's row never changes once written, so a run (and a vector) is decoded once and remembered by
its whole raw row (a restored database with other runs under the same ids has other rows, hence
other entries).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun
from orbitkb.sql import change_surface, codec
from orbitkb.sql.tables import change_surface_runs as runs_t
from orbitkb.sql.tables import embeddings as t
from orbitkb.sql.vectors import HISTORY_KIND


class HistoryReader:
    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._runs: OrderedDict[tuple[Any, ...], ChangeSurfaceRun] = OrderedDict()
        self._vectors: OrderedDict[tuple[str, bytes], tuple[float, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, conn: Connection, limit: int, model_id: str | None) -> ChangeHistory:
        vectors = self._task_vectors(conn, model_id) if model_id else {}
        return ChangeHistory(tuple(self._list_runs(conn, limit)), tuple(change_surface.list_feedback(conn)),
                             tuple(change_surface.list_verifications(conn)), vectors)

    def _task_vectors(self, conn: Connection, model_id: str) -> dict[str, tuple[float, ...]]:
        statement = (sa.select(t.c.owner_id, t.c.vector)
                     .where(t.c.model_id == model_id, t.c.owner_kind == HISTORY_KIND).order_by(t.c.owner_id))
        out = {}
        for owner, blob in conn.execute(statement):
            key = (owner, blob)
            with self._lock:
                vector = self._vectors.get(key)
            if vector is None:
                vector = codec.unpack_vector(blob)
                with self._lock:
                    self._vectors[key] = vector
                    if len(self._vectors) > self._size:
                        self._vectors.popitem(last=False)
            out[owner] = vector
        return out

    def _list_runs(self, conn: Connection, limit: int) -> list[ChangeSurfaceRun]:
        statement = codec.select_for(runs_t, ChangeSurfaceRun).order_by(runs_t.c.id.desc()).limit(max(limit, 0))
        out = []
        for row in conn.execute(statement):
            key = tuple(row)
            with self._lock:
                run = self._runs.get(key)
            if run is None:
                run = codec.from_row(row._mapping, ChangeSurfaceRun, change_surface.RUN_JSON)
                with self._lock:
                    self._runs[key] = run
                    if len(self._runs) > self._size:
                        self._runs.popitem(last=False)
            out.append(run)
        return out
