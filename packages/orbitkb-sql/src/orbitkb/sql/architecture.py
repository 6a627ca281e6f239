"""Architecture runs (cycles, hubs, shared tables...), most recent first."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.runs import ArchitectureRun
from orbitkb.sql import codec
from orbitkb.sql.tables import architecture_runs as t

JSON = ("findings",)


def add(conn: Connection, run: ArchitectureRun) -> int:
    result = conn.execute(sa.insert(t).values(codec.to_row(run, JSON, drop=("id",))))
    return codec.new_id(result)


def list_runs(conn: Connection, limit: int = 2) -> list[ArchitectureRun]:
    statement = codec.select_for(t, ArchitectureRun).order_by(t.c.id.desc()).limit(max(limit, 0))
    return codec.fetch(conn, statement, ArchitectureRun, JSON)
