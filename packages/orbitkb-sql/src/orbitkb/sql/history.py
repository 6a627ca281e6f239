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
run with a lower id can commit after a higher one. Every read goes through a ``RowSource``: the
engine's connection, or a store's faster path to the same rows (orbitkb.sqlite's probe).
"""

from __future__ import annotations

import threading
from typing import Any

import sqlalchemy as sa
from attrs import frozen

from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun, Feedback, Verification
from orbitkb.sql import change_surface, codec
from orbitkb.sql.kept import KeptRows
from orbitkb.sql.rows import RowSource
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
        self._listings: dict[str, tuple[Any, Any]] = {}  # model -> (its vectors' hashes, its vectors by owner)

    @property
    def decoded(self) -> int:
        """Runs decoded from their rows (for tests and benchmarks)."""
        return self._runs.decoded

    def read(self, source: RowSource, limit: int, model_id: str | None) -> ChangeHistory:
        with self._lock:
            runs = tuple(self._runs.newest(source, limit))
            ids = tuple(r.id for r in runs)
            if self._runs.basis != self._basis:  # an index or a restore: ids may now name other runs
                self._basis, self._vectors, self._kept = self._runs.basis, {}, None
            feedback = tuple(codec.from_row(row, Feedback, ()) for row in source.rows(change_surface.ALL_FEEDBACK))
            verifications = tuple(codec.from_row(row, Verification, change_surface.VERIFICATION_JSON)
                                  for row in source.rows(change_surface.ALL_VERIFICATIONS))
            vectors = self._task_vectors(source, model_id) if model_id else {}
            key = (limit, model_id, ids, feedback, verifications, tuple(vectors))
            kept = self._kept
            if kept is not None and kept.key == key and kept.history.task_vectors == vectors:
                return kept.history
            history = ChangeHistory(runs, feedback, verifications, vectors)
            self._kept = _Kept(key, history)
            return history

    def _task_vectors(self, source: RowSource, model_id: str) -> dict[str, tuple[float, ...]]:
        listing, of_owners = self._listing(model_id)
        listed = source.tuples(listing)
        missing = [owner for owner, digest in listed if (model_id, owner, digest) not in self._vectors]
        for chunk in codec.chunks(missing):
            for row in source.rows(of_owners, {"owners": chunk}):
                self._vectors[(model_id, row["owner_id"], row["content_hash"])] = codec.unpack_vector(row["vector"])
        found = {owner: self._vectors[k] for owner, digest in listed if (k := (model_id, owner, digest)) in self._vectors}
        if len(self._vectors) > 2 * len(listed) + 64:  # vectors of replaced texts or other models
            self._vectors = {(model_id, o, d): self._vectors[(model_id, o, d)] for o, d in listed if o in found}
        return found

    def _listing(self, model_id: str) -> tuple[Any, Any]:
        """A model's statements, built once: its task vectors' hashes, and the vectors of some owners."""
        found = self._listings.get(model_id)
        if found is None:
            of_model = sa.and_(t.c.model_id == model_id, t.c.owner_kind == HISTORY_KIND)
            found = (sa.select(t.c.owner_id, t.c.content_hash).where(of_model).order_by(t.c.owner_id),
                     sa.select(t.c.owner_id, t.c.content_hash, t.c.vector).where(
                         of_model, t.c.owner_id.in_(sa.bindparam("owners", expanding=True))))
            self._listings[model_id] = found
        return found
