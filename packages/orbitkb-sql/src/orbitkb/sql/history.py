"""The change history read at once (``RunLog.change_history``), each run and vector decoded once.

Every change surface reads up to 500 past runs and their task vectors. A run is never rewritten,
so a process decodes it once, by id, and afterwards asks only for the ids of the newest runs and
decodes the new ones; a task vector once per (model, owner, content hash) — the same text
embedded by the same model. Both are kept for one snapshot token (an index or a restore moves
it: ids may then name other runs). Feedback and verifications (a few rows) are read every time.
Nothing here writes: a role allowed only to insert runs and feedback (a read-only agent's grants)
still records its history, and another process's run is in the next read.
While nothing was recorded the same ``ChangeHistory`` object is returned again.
Run ids are asked for on every read, never derived from the highest id seen: on PostgreSQL a
run with a lower id can commit after a higher one.
"""

from __future__ import annotations

import threading

import sqlalchemy as sa
from attrs import frozen
from sqlalchemy.engine import Connection

from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun
from orbitkb.sql import change_surface, codec
from orbitkb.sql.kept import KeptRows
from orbitkb.sql.tables import change_surface_runs as runs_t
from orbitkb.sql.tables import embeddings as t
from orbitkb.sql.vectors import HISTORY_KIND


@frozen
class _Kept:
    key: tuple[object, ...]
    history: ChangeHistory


class HistoryReader:
    """One per store: the history last read, and the runs and vectors decoded under one snapshot."""

    def __init__(self) -> None:
        self._basis: str | None = None  # the snapshot token the decoded vectors belong to
        self._runs = KeptRows(runs_t, ChangeSurfaceRun, change_surface.RUN_JSON)
        self._vectors: dict[tuple[str, str, str], tuple[float, ...]] = {}
        self._kept: _Kept | None = None
        self._lock = threading.Lock()

    @property
    def decoded(self) -> int:
        """Runs decoded from their rows (for tests and benchmarks)."""
        return self._runs.decoded

    def read(self, conn: Connection, limit: int, model_id: str | None) -> ChangeHistory:
        with self._lock:
            runs = tuple(self._runs.newest(conn, limit))
            ids = tuple(r.id for r in runs)
            if self._runs.basis != self._basis:  # an index or a restore: ids may now name other runs
                self._basis, self._vectors, self._kept = self._runs.basis, {}, None
            feedback = tuple(change_surface.list_feedback(conn))
            verifications = tuple(change_surface.list_verifications(conn))
            vectors = self._task_vectors(conn, model_id) if model_id else {}
            key = (limit, model_id, ids, feedback, verifications, tuple(vectors))
            kept = self._kept
            if kept is not None and kept.key == key and kept.history.task_vectors == vectors:
                return kept.history
            history = ChangeHistory(runs, feedback, verifications, vectors)
            self._kept = _Kept(key, history)
            return history

    def _task_vectors(self, conn: Connection, model_id: str) -> dict[str, tuple[float, ...]]:
        of_model = sa.and_(t.c.model_id == model_id, t.c.owner_kind == HISTORY_KIND)
        listed = conn.execute(sa.select(t.c.owner_id, t.c.content_hash).where(of_model).order_by(t.c.owner_id)).all()
        missing = [owner for owner, digest in listed if (model_id, owner, digest) not in self._vectors]
        for chunk in codec.chunks(missing):
            statement = sa.select(t.c.owner_id, t.c.content_hash, t.c.vector).where(of_model, t.c.owner_id.in_(chunk))
            for owner, digest, blob in conn.execute(statement):
                self._vectors[(model_id, owner, digest)] = codec.unpack_vector(blob)
        found = {owner: self._vectors[k] for owner, digest in listed if (k := (model_id, owner, digest)) in self._vectors}
        if len(self._vectors) > 2 * len(listed) + 64:  # vectors of replaced texts or other models
            self._vectors = {(model_id, o, d): self._vectors[(model_id, o, d)] for o, d in listed if o in found}
        return found
