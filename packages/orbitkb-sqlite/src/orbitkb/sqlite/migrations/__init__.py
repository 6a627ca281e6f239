"""Versioned schema migrations: an ordered list of steps, applied in place on open.

The version lives in ``schema_meta`` (key "version"), a plain table so the same scheme works on
other databases (the runner, ``orbitkb.sql.migrate``, is shared with the PostgreSQL store).
Opening an older database upgrades it in one transaction, keeping every row; opening a newer one
raises SchemaTooNew naming both versions, because guessing would lose data.
"""

from __future__ import annotations

from orbitkb.sql.migrate import Migration, Migrator, read_version
from orbitkb.sql.unit import UnitOfWork
from orbitkb.sqlite.migrations import (
    v0001_initial,
    v0002_llm_cache_embeddings,
    v0003_technologies,
    v0004_many_apis,
    v0005_compressed_analysis_cache,
    v0006_service_index_costs,
    v0007_search_kind_bands,
)

__all__ = ["LATEST", "MIGRATIONS", "Migration", "read_version", "upgrade"]

MIGRATIONS: tuple[Migration, ...] = tuple(
    Migration(m.VERSION, m.DESCRIPTION, m.upgrade) for m in (
        v0001_initial, v0002_llm_cache_embeddings, v0003_technologies, v0004_many_apis,
        v0005_compressed_analysis_cache, v0006_service_index_costs, v0007_search_kind_bands,
    )
)
LATEST = MIGRATIONS[-1].version
MIGRATOR = Migrator(MIGRATIONS)


def upgrade(db: UnitOfWork, target: int = LATEST) -> int:
    """Bring ``db`` to ``target`` (default: the latest); returns the version now in place."""
    return MIGRATOR.upgrade(db, target)
