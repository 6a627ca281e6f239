"""Service calls, ordered by (from_service_id, target, id); findable by the target name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from orbitkb.domain.model import ServiceCall
from orbitkb.sqlite import codec
from orbitkb.sqlite.tables import calls as t
from sqlalchemy.engine import Connection

JSON = ("data_needed", "evidence")
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


def update(conn: Connection, calls: Sequence[ServiceCall]) -> None:
    codec.update_fields(conn, t, calls, REWRITABLE, JSON)
