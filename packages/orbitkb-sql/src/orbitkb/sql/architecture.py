"""Architecture runs (cycles, hubs, shared tables...), most recent first; a long-lived process
reads them through ``kept_runs()`` (each run decoded once: find_architecture_smells reads the
newest two on every answer)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.runs import ArchitectureRun
from orbitkb.sql import codec
from orbitkb.sql.kept import KeptRows
from orbitkb.sql.tables import architecture_runs as t

JSON = ("findings",)


def add(conn: Connection, run: ArchitectureRun) -> int:
    result = conn.execute(sa.insert(t).values(codec.to_row(run, JSON, drop=("id",))))
    return codec.new_id(result)


def kept_runs() -> KeptRows[ArchitectureRun]:
    """The newest runs, most recent first, each decoded once per process (``KeptRows.newest``)."""
    return KeptRows(t, ArchitectureRun, JSON)
