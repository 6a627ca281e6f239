"""Versioned schema migrations: an ordered list of steps, applied in place on open.

The version lives in ``schema_meta`` (key "version"), a plain table so the same scheme works on
other databases. Opening an older database upgrades it in one transaction, keeping every row;
opening a newer one raises SchemaTooNew naming both versions, because guessing would lose data.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from attrs import frozen
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import SchemaTooNew, StoreError
from orbitkb.sqlite.engine import Database
from orbitkb.sqlite.migrations import (
    v0001_initial,
    v0002_llm_cache_embeddings,
    v0003_technologies,
    v0004_many_apis,
    v0005_compressed_analysis_cache,
)


@frozen
class Migration:
    version: int
    description: str
    upgrade: Callable[[Connection], None]


MIGRATIONS: tuple[Migration, ...] = tuple(
    Migration(m.VERSION, m.DESCRIPTION, m.upgrade) for m in (
        v0001_initial, v0002_llm_cache_embeddings, v0003_technologies, v0004_many_apis,
        v0005_compressed_analysis_cache,
    )
)
LATEST = MIGRATIONS[-1].version
_meta = sa.table("schema_meta", sa.column("key"), sa.column("value"))


def read_version(conn: Connection) -> int:
    """The database's schema version; 0 for an empty database."""
    tables = set(sa.inspect(conn).get_table_names())
    if "schema_meta" not in tables:
        if tables:
            raise StoreError(
                "the database holds tables but no orbitkb schema version: it was not written by orbitkb",
                hint="point --db / ORBITKB_DB to a new file",
            )
        return 0
    value = conn.execute(sa.select(_meta.c.value).where(_meta.c.key == "version")).scalar()
    try:
        return int(value) if value is not None else 0
    except ValueError as exc:
        raise StoreError(f"the database's schema version is not a number: {value!r}") from exc


def _write_version(conn: Connection, version: int) -> None:
    updated = conn.execute(sa.update(_meta).where(_meta.c.key == "version").values(value=str(version)))
    if updated.rowcount == 0:
        conn.execute(sa.insert(_meta).values(key="version", value=str(version)))


def _check_not_newer(version: int, path: str) -> None:
    if version > LATEST:
        raise SchemaTooNew(
            f"the database {path} has schema version {version}, newer than version {LATEST} "
            "that this orbitkb understands",
            hint="upgrade orbitkb (the database is left untouched)",
        )


def upgrade(db: Database, target: int = LATEST) -> int:
    """Bring ``db`` to ``target`` (default: the latest); returns the version now in place."""
    with db.read() as conn:
        version = read_version(conn)
    _check_not_newer(version, db.path)
    if version >= target:
        return version
    with db.write() as conn:
        # Re-read under the write lock: another process may have migrated meanwhile.
        version = read_version(conn)
        _check_not_newer(version, db.path)
        for step in MIGRATIONS:
            if version < step.version <= target:
                step.upgrade(conn)
                version = step.version
                _write_version(conn, version)
    return version
