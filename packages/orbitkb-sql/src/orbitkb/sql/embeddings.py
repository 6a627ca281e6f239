"""Stored embeddings: one float32 vector per (model, owner kind, owner id, field).

Listed in (owner_kind, owner_id, field) order. ``put`` replaces the vectors with the same key.
Every write marks the embeddings as changed (``vectors.touch``) so that search matrices reload.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.runs import Embedding
from orbitkb.sql import codec, vectors
from orbitkb.sql.tables import embeddings as t

_KEY = ("model_id", "owner_kind", "owner_id", "field")


def put(conn: Connection, embeddings: Sequence[Embedding], table: sa.Table = t,
        extra: Callable[[Embedding], Mapping[str, Any]] | None = None) -> None:
    """``table`` and ``extra``: the same table with a dialect's own columns and their values (the
    PostgreSQL store's pgvector column)."""
    latest = {(e.model_id, e.owner_kind, e.owner_id, e.field): e for e in embeddings}
    if not latest:
        return
    # Portable upsert: delete the keys, then insert (both executemany, inside one transaction).
    where = sa.and_(*(table.c[name] == sa.bindparam(f"k_{name}") for name in _KEY))
    conn.execute(sa.delete(table).where(where), [{f"k_{n}": v for n, v in zip(_KEY, key)} for key in latest])
    rows = [
        {
            "model_id": e.model_id,
            "owner_kind": e.owner_kind,
            "owner_id": e.owner_id,
            "field": e.field,
            "content_hash": e.content_hash,
            "dim": len(e.vector),
            "vector": codec.pack_vector(e.vector),
            **(extra(e) if extra is not None else {}),
        }
        for e in latest.values()
    ]
    conn.execute(sa.insert(table), rows)
    if any(e.owner_kind != vectors.HISTORY_KIND for e in latest.values()):
        vectors.touch(conn)  # a past task's vector is history: the facts' matrix stays valid


def list_embeddings(conn: Connection, model_id: str, owner_kind: str | None = None) -> list[Embedding]:
    statement = (
        sa.select(t.c.owner_kind, t.c.owner_id, t.c.field, t.c.content_hash, t.c.model_id, t.c.vector)
        .where(t.c.model_id == model_id)
        .order_by(t.c.owner_kind, t.c.owner_id, t.c.field)
    )
    if owner_kind is not None:
        statement = statement.where(t.c.owner_kind == owner_kind)
    return [
        Embedding(
            r.owner_kind, r.owner_id, r.field, r.content_hash, r.model_id, codec.unpack_vector(r.vector)
        )
        for r in conn.execute(statement)
    ]


def delete(conn: Connection, owner_ids: Sequence[str]) -> None:
    """Every vector of these owners, whatever the model or field."""
    for chunk in codec.chunks(sorted(set(owner_ids))):
        conn.execute(sa.delete(t).where(t.c.owner_id.in_(chunk)))
    if owner_ids:
        vectors.touch(conn)
