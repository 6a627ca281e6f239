"""The versioned-migration runner both SQL stores use: read the version, refuse a newer schema
naming both versions, apply the missing steps in one transaction and record the version.

The version lives in ``schema_meta`` (key "version"). ``lock`` (optional) runs first inside the
write transaction — PostgreSQL takes an advisory lock there so two processes opening a new
database migrate it once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from attrs import frozen
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import SchemaTooNew, StoreError
from orbitkb.sql.unit import UnitOfWork

_meta = sa.table("schema_meta", sa.column("key"), sa.column("value"))


@frozen
class Migration:
    version: int
    description: str
    upgrade: Callable[[Connection], None]


def read_version(conn: Connection) -> int:
    """The database's schema version; 0 for an empty database."""
    tables = set(sa.inspect(conn).get_table_names())
    if "schema_meta" not in tables:
        if tables:
            raise StoreError(
                "the database holds tables but no orbitkb schema version: it was not written by orbitkb",
                hint="point --db / ORBITKB_DB to a new database",
            )
        return 0
    value = conn.execute(sa.select(_meta.c.value).where(_meta.c.key == "version")).scalar()
    try:
        return int(value) if value is not None else 0
    except ValueError as exc:
        raise StoreError(f"the database's schema version is not a number: {value!r}") from exc


def write_version(conn: Connection, version: int) -> None:
    updated = conn.execute(sa.update(_meta).where(_meta.c.key == "version").values(value=str(version)))
    if updated.rowcount == 0:
        conn.execute(sa.insert(_meta).values(key="version", value=str(version)))


@frozen
class Migrator:
    migrations: Sequence[Migration]
    lock: Callable[[Connection], None] | None = None

    @property
    def latest(self) -> int:
        return self.migrations[-1].version

    def check_not_newer(self, version: int, where: str) -> None:
        if version > self.latest:
            raise SchemaTooNew(
                f"the database {where} has schema version {version}, newer than version {self.latest} "
                "that this orbitkb understands",
                hint="upgrade orbitkb (the database is left untouched)",
            )

    def upgrade(self, db: UnitOfWork, target: int | None = None) -> int:
        """Bring ``db`` to ``target`` (default: the latest); returns the version now in place."""
        target = self.latest if target is None else target
        with db.read() as conn:
            version = read_version(conn)
        self.check_not_newer(version, db.path)
        if version >= target:
            return version
        with db.write() as conn:
            if self.lock is not None:
                self.lock(conn)
            # Re-read under the lock: another process may have migrated meanwhile.
            version = read_version(conn)
            self.check_not_newer(version, db.path)
            for step in self.migrations:
                if version < step.version <= target:
                    step.upgrade(conn)
                    version = step.version
                    write_version(conn, version)
        return version
