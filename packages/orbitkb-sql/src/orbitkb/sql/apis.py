"""APIs (HTTP routes, gRPC methods, message handlers), ordered by (service_id, path, method, id)."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.model import Api
from orbitkb.sql import codec
from orbitkb.sql.tables import apis as t

JSON = ("request_shape", "response_shape", "validations", "evidence")
#: What enrichment may rewrite: its own prose, the validations it read from the handler and the
#: request/response shapes it filled in. Method, path, handler and evidence are facts and stay.
DESCRIPTIVE = (
    "summary",
    "description",
    "summary_provenance",
    "validations",
    "request_shape",
    "response_shape",
)


def insert_many(conn: Connection, apis: Sequence[Api]) -> None:
    codec.insert_many(conn, t, apis, JSON)


def list_apis(conn: Connection, service_id: str | None = None) -> list[Api]:
    statement = codec.select_for(t, Api).order_by(t.c.service_id, t.c.path, t.c.method, t.c.id)
    if service_id is not None:
        statement = statement.where(t.c.service_id == service_id)
    return codec.fetch(conn, statement, Api, JSON)


def count_by_service(conn: Connection) -> dict[str, int]:
    """APIs per service id, counted in SQL (no row is decoded)."""
    statement = sa.select(t.c.service_id, sa.func.count()).group_by(t.c.service_id)
    return {sid: int(n) for sid, n in conn.execute(statement)}


def update_descriptions(conn: Connection, apis: Sequence[Api]) -> None:
    codec.update_fields(conn, t, apis, DESCRIPTIVE, JSON)
