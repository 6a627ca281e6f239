"""Index runs, newest first (id descending), and what each service's LLM units cost in them."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.runs import IndexRun, ServiceIndexCost
from orbitkb.sql import codec
from orbitkb.sql.tables import index_runs as t
from orbitkb.sql.tables import service_index_costs as costs_t


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


#: Each repository's newest run (the highest id) and its status; built once, asked on every listing.
_LATEST_STATUSES = sa.select(t.c.repository, t.c.status).where(
    t.c.id.in_(sa.select(sa.func.max(t.c.id)).group_by(t.c.repository)))
#: The same read as SQL text, for a store that reads it without SQLAlchemy (orbitkb.sqlite.fingerprints).
LATEST_STATUSES_SQL = ("SELECT repository, status FROM index_runs"
                       " WHERE id IN (SELECT max(id) FROM index_runs GROUP BY repository)")


def latest_statuses(conn: Connection) -> dict[str, str]:
    """Repository -> the status of its newest run (the highest id): one grouped read, no decoding."""
    return {repository: status for repository, status in conn.execute(_LATEST_STATUSES)}


def add_costs(conn: Connection, costs: Sequence[ServiceIndexCost]) -> None:
    """Insert ``costs`` (a later duplicate (run, service) wins), replacing any already recorded."""
    latest = {(c.run_id, c.service_id): c for c in costs}
    runs = sorted({run_id for run_id, _ in latest})
    known = {row[0] for row in conn.execute(sa.select(t.c.id).where(t.c.id.in_(runs)))} if runs else set()
    missing = [r for r in runs if r not in known]
    if missing:
        raise RunNotFound(f"index run {missing[0]} does not exist")
    for run_id, service_id in latest:
        conn.execute(sa.delete(costs_t).where(costs_t.c.run_id == run_id, costs_t.c.service_id == service_id))
    codec.insert_many(conn, costs_t, latest.values(), ())


def list_costs(conn: Connection, repository: str | None = None,
               service_id: str | None = None) -> list[ServiceIndexCost]:
    statement = codec.select_for(costs_t, ServiceIndexCost).order_by(
        costs_t.c.run_id.desc(), costs_t.c.service, costs_t.c.service_id)
    if repository is not None:
        statement = statement.where(costs_t.c.repository == repository)
    if service_id is not None:
        statement = statement.where(costs_t.c.service_id == service_id)
    return codec.fetch(conn, statement, ServiceIndexCost, ())
