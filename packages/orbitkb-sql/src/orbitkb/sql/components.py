"""Components (classes, modules) of a service, ordered by (service_id, file_path, start_line, name, id)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Connection

from orbitkb.domain.model import Component
from orbitkb.sql import codec
from orbitkb.sql.tables import components as t

JSON: tuple[str, ...] = ()
DESCRIPTIVE = ("summary", "summary_provenance")


def insert_many(conn: Connection, components: Sequence[Component]) -> None:
    codec.insert_many(conn, t, components, JSON)


def list_components(conn: Connection, service_id: str | None = None) -> list[Component]:
    statement = codec.select_for(t, Component).order_by(
        t.c.service_id, t.c.file_path, t.c.start_line, t.c.name, t.c.id
    )
    if service_id is not None:
        statement = statement.where(t.c.service_id == service_id)
    return codec.fetch(conn, statement, Component, JSON)


def update_summaries(conn: Connection, components: Sequence[Component]) -> None:
    codec.update_fields(conn, t, components, DESCRIPTIVE)
