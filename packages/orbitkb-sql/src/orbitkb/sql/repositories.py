"""Repositories: the indexed code bases, ordered by name."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.model import Repository
from orbitkb.sql import codec
from orbitkb.sql.tables import repositories as t

JSON = ("roots",)


def upsert(conn: Connection, repo: Repository) -> None:
    # UPDATE then INSERT: portable (no dialect upsert), and safe because writes are serialized.
    row = codec.to_row(repo, JSON)
    if conn.execute(sa.update(t).where(t.c.name == repo.name).values(row)).rowcount == 0:
        conn.execute(sa.insert(t).values(row))


def get(conn: Connection, name: str) -> Repository | None:
    found = codec.fetch(conn, codec.select_for(t, Repository).where(t.c.name == name), Repository, JSON)
    return found[0] if found else None


def list_all(conn: Connection) -> list[Repository]:
    return codec.fetch(conn, codec.select_for(t, Repository).order_by(t.c.name), Repository, JSON)


def delete(conn: Connection, name: str) -> None:
    conn.execute(sa.delete(t).where(t.c.name == name))
