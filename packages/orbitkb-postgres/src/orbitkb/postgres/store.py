"""PostgresKnowledgeStore: the store roles over PostgreSQL — the shared SQL store on a psycopg 3
engine, weighted tsvector search and this store's migrations.

Many writers, many readers: each repository's index (``replace_repository_facts``) and removal is
one transaction holding ``pg_advisory_xact_lock`` on the repository's name, so two indexers of
different repositories run at once and a second indexer of the same repository waits for the
first (at most ``lock_timeout_s``, then a StoreError saying so). Readers run in REPEATABLE READ:
a whole ``load_model`` sees one committed snapshot. Every write of facts moves the snapshot
fingerprint, so a long-lived MCP server reloads its model without restarting; a connection lost
to a server restart is replaced on the next call (the pool pings before use). Nearest vectors are
found by the server with pgvector when the database has its column (``orbitkb.postgres.pgvector``),
otherwise by the shared exact scan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import sqlalchemy as sa

from orbitkb.domain.errors import StoreError, StoreReadOnly
from orbitkb.domain.runs import Embedding, VectorHit
from orbitkb.postgres import migrations, pgvector, search
from orbitkb.postgres.engine import Database
from orbitkb.sql.store import SqlKnowledgeStore

#: pg_advisory_xact_lock(namespace, hashtext(repository)): the namespace keeps our keys apart.
LOCK_NAMESPACE = 0x6F6B  # "ok"


class PostgresKnowledgeStore(SqlKnowledgeStore):
    """``PostgresKnowledgeStore(url)`` — the database must exist; its orbitkb schema is created or
    upgraded in place on open (a newer one raises SchemaTooNew). ``read_only=True`` never writes:
    it refuses an older schema instead of upgrading it."""

    def __init__(self, url: str, read_only: bool = False, lock_timeout_s: float = 600.0) -> None:
        db = Database(url, read_only=read_only)
        self._lock_timeout_ms = int(lock_timeout_s * 1000)
        try:
            if read_only:
                with db.read() as conn:
                    version = migrations.read_version(conn)
                migrations.MIGRATOR.check_not_newer(version, db.path)
                if version < migrations.MIGRATOR.latest:
                    raise StoreError(f"the database {db.path} has schema version {version}, older than "
                                     f"{migrations.MIGRATOR.latest}: it cannot be upgraded by a read-only command",
                                     hint="run orbitkb index once with a role that may write")
            else:
                try:
                    migrations.upgrade(db)
                except StoreReadOnly as exc:  # a reader role meets a schema only an indexer may upgrade
                    raise StoreError(f"the database {db.path} has an older orbitkb schema that this role may not "
                                     f"upgrade to version {migrations.MIGRATOR.latest}",
                                     hint="run orbitkb index once with the indexers' role") from exc
            with db.read() as conn:
                self._pgvector = pgvector.present(conn)
        except Exception:
            db.dispose()
            raise
        self._setup(db, search, migrations.read_version)

    @property
    def path(self) -> str:
        """Where the database is (``database on host``): never the credentials."""
        return self._db.path

    @property
    def vector_search(self) -> str:
        """How nearest vectors are found: "pgvector" (by the server) or "exact scan" (in this
        process)."""
        return "pgvector" if self._pgvector else "exact scan"

    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None:
        if not self._pgvector:
            return super().put_embeddings(embeddings)
        with self._db.write() as conn:
            pgvector.put(conn, embeddings)

    def _nearest(self, conn: sa.Connection, model_id: str, vector: Sequence[float], limit: int, floor: float,
                 kinds: Sequence[str] | None) -> list[VectorHit]:
        """By the server's vector index when there is one (and the vector is finite)."""
        if not self._pgvector or not all(math.isfinite(x) for x in vector):
            return super()._nearest(conn, model_id, vector, limit, floor, kinds)
        return pgvector.nearest(conn, model_id, vector, limit, floor, kinds)

    def _lock_repository(self, conn: sa.Connection, name: str) -> None:
        conn.execute(sa.text(f"SET LOCAL lock_timeout = {self._lock_timeout_ms}"))
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:ns, hashtext(:name))"),
                     {"ns": LOCK_NAMESPACE, "name": name})

    def __enter__(self) -> PostgresKnowledgeStore:
        return self
