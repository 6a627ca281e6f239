"""Nearest stored vectors by cosine: one normalised numpy matrix per model, kept between queries.

The matrix is rebuilt only when the embeddings changed: every write of the embeddings table also
writes a fresh random token in ``schema_meta`` (same transaction), and a query compares the token
it built its matrix from with the stored one — one indexed read, correct across processes and
after a restore. Ranking is ``orbitkb.domain.retrieval.rank_nearest``'s, computed on the matrix:
similarities rounded to the same digits, best field per owner (the first listed on a tie), then
similarity and owner id; only the head of the ranking that can hold the first ``limit`` owners is
sorted (``best_first``), kinds are filtered as small integer codes, and the product runs on one
BLAS thread (blas.py) — at 40,000 vectors a full sort, a filter over an array of strings and the
spinning of BLAS helper threads cost more than the product itself. numpy is imported on
the first query, never when the store opens.
``UnitRows``: the cosines of one vector to listed owners (a task to every past task), each
owner's row normalised once.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from attrs import frozen
from sqlalchemy.engine import Connection

from orbitkb.domain.retrieval import RANK_DIGITS
from orbitkb.domain.runs import VectorHit
from orbitkb.sql import codec
from orbitkb.sql.blas import one_thread
from orbitkb.sql.rows import RowSource
from orbitkb.sql.tables import embeddings as t
from orbitkb.sql.tables import schema_meta

if TYPE_CHECKING:
    import numpy as np

TOKEN_KEY = "embeddings_token"
#: vectors of past change-surface tasks: read by similar_past_tasks, never searched as facts
HISTORY_KIND = "run"


def touch(conn: Connection) -> None:
    """Mark the embeddings as changed (call inside the transaction that changed them)."""
    token = uuid.uuid4().hex
    updated = conn.execute(sa.update(schema_meta).where(schema_meta.c.key == TOKEN_KEY).values(value=token))
    if updated.rowcount == 0:
        conn.execute(sa.insert(schema_meta).values(key=TOKEN_KEY, value=token))


def _token(conn: Connection) -> str | None:
    return conn.execute(sa.select(schema_meta.c.value).where(schema_meta.c.key == TOKEN_KEY)).scalar()


@frozen
class _Group:
    """The vectors of one dimension, in (owner_kind, owner_id, field) order, rows of unit length;
    ``owner_rank`` orders owner ids as strings sort, for tie-breaking inside numpy; ``kind_code``
    is each row's kind as its place in ``kind_names``."""

    kinds: tuple[str, ...]
    owners: tuple[str, ...]
    fields: tuple[str, ...]
    matrix: np.ndarray[Any, Any]
    owner_rank: np.ndarray[Any, Any]
    kind_names: tuple[str, ...]
    kind_code: np.ndarray[Any, Any]


@frozen
class _Matrix:
    token: str | None
    groups: dict[int, _Group]


def _load(conn: Connection, model_id: str, token: str | None) -> _Matrix:
    import numpy as np

    rows: dict[int, list[Any]] = {}
    statement = (sa.select(t.c.owner_kind, t.c.owner_id, t.c.field, t.c.dim, t.c.vector)
                 .where(t.c.model_id == model_id, t.c.owner_kind != HISTORY_KIND)
                 .order_by(t.c.owner_kind, t.c.owner_id, t.c.field))
    for r in conn.execute(statement):
        if len(r.vector) == 4 * r.dim:  # a damaged row is skipped, not a crash
            rows.setdefault(r.dim, []).append(r)
    groups = {}
    for dim, held in rows.items():
        matrix = np.frombuffer(b"".join(r.vector for r in held), dtype="<f4").reshape(len(held), dim)
        matrix = matrix.astype(np.float64)
        norms = np.linalg.norm(matrix, axis=1)
        norms[norms == 0.0] = 1.0  # a zero vector stays zero: similarity 0, as in the reference
        owners = tuple(r.owner_id for r in held)
        rank = {owner: i for i, owner in enumerate(sorted(set(owners)))}
        kinds = tuple(r.owner_kind for r in held)
        names = tuple(sorted(set(kinds)))
        code = {k: i for i, k in enumerate(names)}
        groups[dim] = _Group(kinds, owners, tuple(r.field for r in held), matrix / norms[:, None],
                             np.array([rank[o] for o in owners], dtype=np.int64), names,
                             np.array([code[k] for k in kinds], dtype=np.int32))
    return _Matrix(token, groups)


#: rows sorted at first per owner asked for (an owner has one row per embedded field), and at least
HEAD_PER_OWNER, HEAD_MIN = 4, 256


def best_first(idx: np.ndarray[Any, Any], sims: np.ndarray[Any, Any], owner_rank: np.ndarray[Any, Any],
               owners: Sequence[str], limit: int) -> list[int]:
    """The first ``limit`` rows of ``idx``, one per owner, in the order a full sort gives — best
    similarity, then owner id, then row — sorting only a head: every row outside the rows as good as
    the head's worst is worse than all of them, so the head's order is the full order's beginning.
    A head whose rows name fewer than ``limit`` owners is widened until they do or it holds all."""
    import numpy as np

    take = max(limit * HEAD_PER_OWNER, HEAD_MIN)
    while True:
        if take >= len(idx):
            head = idx
        else:
            values = sims[idx]
            cut = len(values) - take
            head = idx[values >= np.partition(values, cut)[cut]]  # ties at the cut stay in the head
        order = head[np.lexsort((head, owner_rank[head], -sims[head]))]
        out: list[int] = []
        seen: set[str] = set()
        for i in order.tolist():
            owner = owners[i]
            if owner not in seen:
                seen.add(owner)
                out.append(i)
                if len(out) == limit:
                    return out
        if len(head) == len(idx):
            return out
        take *= HEAD_PER_OWNER


class VectorIndex:
    """The matrices of one store, by model id; safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, _Matrix] = {}

    def count(self, conn: Connection, model_id: str) -> int:
        statement = sa.select(sa.func.count()).select_from(t).where(t.c.model_id == model_id)
        return int(conn.execute(statement).scalar() or 0)

    def nearest(self, conn: Connection, model_id: str, vector: Sequence[float], limit: int, floor: float,
                kinds: Sequence[str] | None) -> list[VectorHit]:
        token = _token(conn)
        with self._lock:
            held = self._held.get(model_id)
            if held is None or held.token != token:
                held = self._held[model_id] = _load(conn, model_id, token)
        group = held.groups.get(len(vector))
        if group is None or limit <= 0:
            return []
        import numpy as np

        query = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            sims = np.zeros(len(group.owners))
        else:
            with one_thread():  # blas.py: a product this size is faster, and cheaper, on one thread
                sims = np.round(group.matrix @ (query / norm), RANK_DIGITS)
        keep = sims >= floor
        if kinds:
            keep &= np.isin(group.kind_code, [i for i, k in enumerate(group.kind_names) if k in kinds])
        # best first: similarity, then owner id, then list order (the first field wins a tie)
        return [VectorHit(group.kinds[i], group.owners[i], group.fields[i], float(sims[i]))
                for i in best_first(np.flatnonzero(keep), sims, group.owner_rank, group.owners, limit)]


class UnitRows:
    """``EmbeddingStore.similarities`` in one matrix product. The rows of unit length are kept by
    (model, kind, owner, field) with the content hash they were made from (the same text embedded
    by the same model is the same vector), so a call lists the kind's hashes — small rows, no
    vectors — and reads and normalises only the vectors it has not seen: a past task's once, not
    on every answer. Similarities are rounded as ``nearest`` rounds them; safe to share between
    threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[tuple[str, str], dict[tuple[str, str], tuple[str, Any]]] = {}
        self._statements: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def _statements_of(self, model_id: str, owner_kind: str, dim: int) -> tuple[Any, Any]:
        """The kind's (owner, field, hash) listing and the vectors of some owners, built once (a
        ``RowSource`` takes statements with their values bound)."""
        key = (model_id, owner_kind, dim)
        found = self._statements.get(key)
        if found is None:
            of_kind = sa.and_(t.c.model_id == model_id, t.c.owner_kind == owner_kind, t.c.dim == dim)
            found = (sa.select(t.c.owner_id, t.c.field, t.c.content_hash).where(of_kind),
                     sa.select(t.c.owner_id, t.c.field, t.c.content_hash, t.c.dim, t.c.vector).where(
                         of_kind, t.c.owner_id.in_(sa.bindparam("owners", expanding=True))))
            self._statements[key] = found
        return found

    def similarities(self, source: RowSource, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        if not owner_ids or not vector:
            return {}
        import numpy as np

        with self._lock:
            listing, of_owners = self._statements_of(model_id, owner_kind, len(vector))
        wanted = set(owner_ids)
        listed = [(o, f, h) for o, f, h in source.tuples(listing) if o in wanted]
        with self._lock:
            held = self._held.setdefault((model_id, owner_kind), {})
            missing = sorted({o for o, f, h in listed if (kept := held.get((o, f))) is None or kept[0] != h})
        fresh: dict[tuple[str, str], tuple[str, Any]] = {}
        for chunk in codec.chunks(missing):
            for r in source.rows(of_owners, {"owners": chunk}):
                if len(r["vector"]) == 4 * r["dim"]:  # a damaged row is skipped, not a crash
                    row = np.frombuffer(r["vector"], dtype="<f4").astype(np.float64)
                    norm = float(np.linalg.norm(row))
                    fresh[(r["owner_id"], r["field"])] = (r["content_hash"], row / norm if norm else row)
        with self._lock:
            held.update(fresh)
            keys = [(o, f) for o, f, h in listed if (kept := held.get((o, f))) is not None and kept[0] == h]
            rows = [held[k][1] for k in keys]
            if len(held) > 2 * len(listed) + 64:  # rows of deleted owners or replaced texts
                self._held[(model_id, owner_kind)] = {k: held[k] for k in keys}
        if not keys:
            return {}
        query = np.asarray(vector, dtype=np.float64)
        norm = float(np.linalg.norm(query))
        if norm == 0.0:
            sims = np.zeros(len(keys)).tolist()
        else:
            with one_thread():
                sims = np.round(np.stack(rows) @ (query / norm), RANK_DIGITS).tolist()
        found: dict[str, float] = {}
        for (owner, _), sim in zip(keys, sims, strict=True):
            if sim > found.get(owner, -2.0):
                found[owner] = sim
        return found
