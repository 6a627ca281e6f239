"""Technology facts (languages, frameworks, libraries, build tools, base images), ordered by
(service_id, kind, name, id)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Connection

from orbitkb.domain.model import Technology
from orbitkb.sql import codec
from orbitkb.sql.tables import technologies as t

JSON = ("evidence",)


def insert_many(conn: Connection, items: Sequence[Technology]) -> None:
    codec.insert_many(conn, t, items, JSON)


def list_technologies(conn: Connection, service_id: str | None = None) -> list[Technology]:
    statement = codec.select_for(t, Technology).order_by(t.c.service_id, t.c.kind, t.c.name, t.c.id)
    if service_id is not None:
        statement = statement.where(t.c.service_id == service_id)
    return codec.fetch(conn, statement, Technology, JSON)
