"""Service calls, ordered by (from_service_id, target, id); findable by the target name; upserted
by id (reconciliation rewrites targets, enrichment adds the calls an LLM proposes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import StoreError
from orbitkb.domain.model import ServiceCall
from orbitkb.sql import codec
from orbitkb.sql.tables import calls as t
from orbitkb.sql.tables import services

JSON = ("data_needed", "evidence", "from_api_ids")
#: Everything but the id and the caller: reconciliation resolves targets, enrichment adds reasons.
REWRITABLE = tuple(n for n in codec.field_names(ServiceCall) if n not in ("id", "from_service_id"))


def insert_many(conn: Connection, calls: Sequence[ServiceCall]) -> None:
    codec.insert_many(conn, t, calls, JSON)


def _ordered() -> sa.Select[Any]:
    return codec.select_for(t, ServiceCall).order_by(t.c.from_service_id, t.c.target, t.c.id)


def list_calls(
    conn: Connection, from_service_id: str | None = None, to_service_id: str | None = None
) -> list[ServiceCall]:
    statement = _ordered()
    if from_service_id is not None:
        statement = statement.where(t.c.from_service_id == from_service_id)
    if to_service_id is not None:
        statement = statement.where(t.c.to_service_id == to_service_id)
    return codec.fetch(conn, statement, ServiceCall, JSON)


def list_to_target(conn: Connection, targets: Sequence[str]) -> list[ServiceCall]:
    wanted = sorted(set(targets))
    found: dict[str, ServiceCall] = {}
    for chunk in codec.chunks(wanted):
        for call in codec.fetch(conn, _ordered().where(t.c.target.in_(chunk)), ServiceCall, JSON):
            found[call.id] = call
    return sorted(found.values(), key=lambda c: (c.from_service_id, c.target, c.id))


def _existing(conn: Connection, column: sa.Column[str], ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for chunk in codec.chunks(sorted(set(ids))):
        found.update(conn.execute(sa.select(column).where(column.in_(chunk))).scalars())
    return found


def upsert(conn: Connection, calls: Sequence[ServiceCall]) -> None:
    """Rewrite the calls already stored, insert the others; a later duplicate id wins.

    Portable on purpose (a read, then an UPDATE and an INSERT) rather than a dialect's
    ON CONFLICT. A new call whose caller is not stored raises StoreError before any write,
    so the foreign key never has to fail half-way through a batch.
    """
    latest = list({c.id: c for c in calls}.values())
    stored = _existing(conn, t.c.id, [c.id for c in latest])
    new = [c for c in latest if c.id not in stored]
    callers = _existing(conn, services.c.id, [c.from_service_id for c in new])
    orphans = sorted({c.id: c.from_service_id for c in new if c.from_service_id not in callers}.items())
    if orphans:
        cid, sid = orphans[0]
        raise StoreError(
            f"call {cid} comes from service {sid}, which is not stored ({len(orphans)} such calls)"
        )
    codec.update_fields(conn, t, [c for c in latest if c.id in stored], REWRITABLE, JSON)
    insert_many(conn, new)
