"""Services, ordered by (repository, name, id); deleting them cascades to everything they own."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.model import Service
from orbitkb.sql import codec
from orbitkb.sql.tables import services as t

JSON = ("aliases", "evidence")
#: What enrichment may rewrite; names, roots and evidence are facts and stay.
DESCRIPTIVE = ("short_desc", "long_desc", "desc_provenance")


def insert_many(conn: Connection, services: Sequence[Service]) -> None:
    codec.insert_many(conn, t, services, JSON)


def delete_repository(conn: Connection, repository: str) -> None:
    conn.execute(sa.delete(t).where(t.c.repository == repository))


def list_services(conn: Connection, repository: str | None = None) -> list[Service]:
    statement = codec.select_for(t, Service).order_by(t.c.repository, t.c.name, t.c.id)
    if repository is not None:
        statement = statement.where(t.c.repository == repository)
    return codec.fetch(conn, statement, Service, JSON)


def get(conn: Connection, service_id: str) -> Service | None:
    found = codec.fetch(conn, codec.select_for(t, Service).where(t.c.id == service_id), Service, JSON)
    return found[0] if found else None


def update_descriptions(conn: Connection, services: Sequence[Service]) -> None:
    codec.update_fields(conn, t, services, DESCRIPTIVE)
