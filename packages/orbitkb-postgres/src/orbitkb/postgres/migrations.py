"""Versioned schema migrations of the PostgreSQL store: an ordered list of steps, applied in place.

The version lives in ``schema_meta`` (key "version") as in the SQLite store; its numbering is
this store's own. Opening an older schema upgrades it in one transaction under an advisory lock
(two processes opening a new database at once migrate it once); a newer one raises SchemaTooNew
naming both versions, because guessing would lose data.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection

from orbitkb.postgres import pgvector, search
from orbitkb.sql import snapshot, tables
from orbitkb.sql.migrate import Migration, Migrator, read_version
from orbitkb.sql.unit import UnitOfWork

__all__ = ["LATEST", "MIGRATIONS", "MIGRATOR", "Migration", "Migrator", "read_version", "upgrade"]

#: pg_advisory_xact_lock key of schema changes (the bytes of "orbitkb!" as a bigint).
MIGRATION_LOCK = int.from_bytes(b"orbitkb!", "big") & 0x7FFF_FFFF_FFFF_FFFF


#: Tables of the shared schema that later steps add (each created by its own step, frozen there).
_LATER = ("service_index_costs",)


def _v1_initial(conn: Connection) -> None:
    """Every table of the shared schema (but those later steps add), the search table, and the
    snapshot tokens."""
    tables.metadata.create_all(conn, tables=[t for t in tables.metadata.sorted_tables if t.name not in _LATER])
    search.create_index(conn)
    # The token rows exist from the start: concurrent writers then only ever UPDATE them.
    for key in (snapshot.TOKEN_KEY, "embeddings_token"):
        conn.execute(sa.insert(tables.schema_meta).values(key=key, value=snapshot.INITIAL))


def _v2_service_index_costs(conn: Connection) -> None:
    """What the LLM spent describing each service in each index run (frozen: its own metadata)."""
    md = sa.MetaData()
    text = postgresql.TEXT(collation="C")
    sa.Table("index_runs", md, sa.Column("id", sa.Integer, primary_key=True))
    costs = sa.Table(
        "service_index_costs",
        md,
        sa.Column("run_id", sa.Integer, sa.ForeignKey("index_runs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("service_id", text, primary_key=True),
        sa.Column("repository", text, nullable=False),
        sa.Column("service", text, nullable=False),
        sa.Column("llm_calls", sa.Integer, nullable=False),
        sa.Column("input_tokens", sa.Integer),
        sa.Column("output_tokens", sa.Integer),
        sa.Column("cost_usd", sa.Float),
        sa.Index("ix_service_index_costs_service", "service_id"),
        sa.Index("ix_service_index_costs_repository", "repository"),
    )
    costs.create(conn)


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial schema", _v1_initial),
    Migration(2, "service_index_costs table", _v2_service_index_costs),
    Migration(3, "search postings and corpus statistics", search.create_postings),
    Migration(4, "pgvector column when the server has the extension", pgvector.create),
)
LATEST = MIGRATIONS[-1].version


def _lock(conn: Connection) -> None:
    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})


MIGRATOR = Migrator(MIGRATIONS, lock=_lock)


def upgrade(db: UnitOfWork, target: int | None = None) -> int:
    """Bring ``db`` to ``target`` (default: the latest); returns the version now in place."""
    return MIGRATOR.upgrade(db, target)
