"""Index runs, newest first (id descending)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.runs import IndexRun
from orbitkb.sql import codec
from orbitkb.sql.tables import index_runs as t


def add(conn: Connection, run: IndexRun) -> int:
    """Store ``run`` under a new id (its own ``id`` is ignored) and return the id."""
    result = conn.execute(sa.insert(t).values(codec.to_row(run, (), drop=("id",))))
    return codec.new_id(result)


def update(conn: Connection, run: IndexRun) -> None:
    if run.id is None:
        raise RunNotFound("an index run without an id cannot be updated")
    row = codec.to_row(run, (), drop=("id",))
    if conn.execute(sa.update(t).where(t.c.id == run.id).values(row)).rowcount == 0:
        raise RunNotFound(f"index run {run.id} does not exist")


def list_runs(conn: Connection, repository: str | None = None, limit: int = 20) -> list[IndexRun]:
    statement = codec.select_for(t, IndexRun).order_by(t.c.id.desc()).limit(max(limit, 0))
    if repository is not None:
        statement = statement.where(t.c.repository == repository)
    return codec.fetch(conn, statement, IndexRun, ())
