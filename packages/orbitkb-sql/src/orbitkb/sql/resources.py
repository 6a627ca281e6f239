"""Infrastructure a repository declares (databases, brokers, caches), ordered by (repository, name, kind, engine)."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.model import Resource
from orbitkb.sql import codec
from orbitkb.sql.tables import resources as t

JSON = ("evidence",)


def replace(conn: Connection, repository: str, resources: Sequence[Resource]) -> None:
    conn.execute(sa.delete(t).where(t.c.repository == repository))
    codec.insert_many(conn, t, resources, JSON)


def list_resources(conn: Connection, repository: str | None = None) -> list[Resource]:
    # rowid_ last: identical rows keep the order they were given in.
    statement = codec.select_for(t, Resource).order_by(
        t.c.repository, t.c.name, t.c.kind, t.c.engine, t.c.rowid_
    )
    if repository is not None:
        statement = statement.where(t.c.repository == repository)
    return codec.fetch(conn, statement, Resource, JSON)
