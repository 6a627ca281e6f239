"""Messages published or consumed, ordered by (service_id, channel, direction, id)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.engine import Connection

from orbitkb.domain.model import Message
from orbitkb.sql import codec
from orbitkb.sql.tables import messages as t

#: What enrichment may rewrite; the fact's provenance stays (the model has no per-field one).
DESCRIPTIVE = ("description",)
JSON = ("evidence", "api_ids")


def insert_many(conn: Connection, messages: Sequence[Message]) -> None:
    codec.insert_many(conn, t, messages, JSON)


def list_messages(
    conn: Connection, service_id: str | None = None, channel: str | None = None
) -> list[Message]:
    statement = codec.select_for(t, Message).order_by(t.c.service_id, t.c.channel, t.c.direction, t.c.id)
    if service_id is not None:
        statement = statement.where(t.c.service_id == service_id)
    if channel is not None:
        statement = statement.where(t.c.channel == channel)
    return codec.fetch(conn, statement, Message, JSON)


def update_descriptions(conn: Connection, items: Sequence[Message]) -> None:
    codec.update_fields(conn, t, items, DESCRIPTIVE)
