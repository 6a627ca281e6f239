"""Persistence entities (tables, collections, key prefixes), ordered by (service_id, name, id)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Connection

from orbitkb.domain.model import PersistenceEntity
from orbitkb.sql import codec
from orbitkb.sql.tables import entities as t

#: What enrichment may rewrite; the fact's provenance stays (the model has no per-field one).
DESCRIPTIVE = ("description",)
JSON = ("fields", "evidence")


def insert_many(conn: Connection, entities: Sequence[PersistenceEntity]) -> None:
    codec.insert_many(conn, t, entities, JSON)


def list_entities(conn: Connection, service_id: str | None = None) -> list[PersistenceEntity]:
    statement = codec.select_for(t, PersistenceEntity).order_by(t.c.service_id, t.c.name, t.c.id)
    if service_id is not None:
        statement = statement.where(t.c.service_id == service_id)
    return codec.fetch(conn, statement, PersistenceEntity, JSON)


def update_descriptions(conn: Connection, items: Sequence[PersistenceEntity]) -> None:
    codec.update_fields(conn, t, items, DESCRIPTIVE)
