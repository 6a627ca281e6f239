"""SqliteKnowledgeStore: the store roles over SQLite — the shared SQL store on an SQLite engine,
FTS5 search and SQLite's migrations.

Every write is one transaction (``BEGIN IMMEDIATE``, see ``engine``); the facts, runs, caches and
embeddings are the shared modules of ``orbitkb.sql`` (see ``orbitkb.sql.store`` for the orders).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar, cast

from orbitkb.domain.errors import StoreError
from orbitkb.domain.runs import ArchitectureRun, ChangeHistory
from orbitkb.sql.rows import RowSource
from orbitkb.sql.store import SqlKnowledgeStore
from orbitkb.sql.vectors import HISTORY_KIND
from orbitkb.sqlite import fingerprints, migrations, search
from orbitkb.sqlite.engine import Database

T = TypeVar("T")


class SqliteKnowledgeStore(SqlKnowledgeStore):
    """``SqliteKnowledgeStore(path)`` — a database file (created with its folder) or ``":memory:"``.

    Opening upgrades an older schema in place; a newer one raises SchemaTooNew; a file that is
    not an SQLite database raises StoreError.

    ``read_only=True`` (commands that only read) writes nothing: a missing file is an empty
    knowledge base held in memory (no folder, no file created), an existing one is opened with
    ``mode=ro`` (``immutable`` on a read-only filesystem); only an older schema is still upgraded
    in place first, as it must be before anything can read it. An existing file this process may
    not write (its mode, its folder, a read-only mount) is opened that way too: every read works,
    and a write raises StoreReadOnly, which readers that record runs turn into a notice.
    """

    def __init__(self, path: str = ":memory:", read_only: bool = False) -> None:
        self._path = path = str(path)
        if read_only and path != ":memory:" and not Path(path).expanduser().exists():
            path = ":memory:"
        read_only = read_only or (path != ":memory:" and not _writable(Path(path).expanduser()))
        self._setup(self._open(path, read_only), search, migrations.read_version)
        self._probe = fingerprints.FingerprintProbe(path) if path != ":memory:" else None
        self._kept: dict[tuple[object, ...], tuple[tuple[int, int], object]] = {}  # see _kept_read

    def snapshot_fingerprint(self) -> str:
        """Read on every answer of a long-lived process: through the probe's own connection (one
        indexed read), the shared path when there is none or it fails (that path names the error)."""
        found = self._probe.read() if self._probe is not None else None
        return found if found is not None else super().snapshot_fingerprint()

    def latest_index_statuses(self) -> dict[str, str]:
        """Asked on every listing of repositories: through the probe's connection, like the fingerprint."""
        found = self._probe.latest_index_statuses() if self._probe is not None else None
        return found if found is not None else super().latest_index_statuses()

    def change_history(self, limit: int = 500, model_id: str | None = None,
                       task_vector: Sequence[float] | None = None) -> ChangeHistory:
        """Read on every change surface (up to 500 past runs, their verdicts, and their task vectors
        or their cosines to the task's): see ``_kept_read``; the cosines as ``similarities``."""
        vectors_of = model_id if task_vector is None else None
        history = self._kept_read(("history", limit, vectors_of),
                                  lambda rows: self._history.read(rows, limit, vectors_of),
                                  lambda: super(SqliteKnowledgeStore, self).change_history(limit, vectors_of))
        if model_id is None or task_vector is None:
            return history
        return history.with_similarities(self.similarities(model_id, task_vector, HISTORY_KIND, history.run_keys()))

    def similarities(self, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        """Asked on every change surface (the task against every past task): through the probe's
        connection, like the history (the shared path when there is no probe or it cannot read)."""
        found = (self._probe.read_rows(lambda rows: self._unit_rows.similarities(rows, model_id, vector, owner_kind,
                                                                                 owner_ids))
                 if self._probe is not None and owner_ids else None)
        return found if found is not None else super().similarities(model_id, vector, owner_kind, owner_ids)

    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        """Read on every find_architecture_smells: see ``_kept_read`` (a list of its own to each caller)."""
        return list(self._kept_read(("architecture", limit), lambda rows: self._architecture_runs.newest(rows, limit),
                                    lambda: super(SqliteKnowledgeStore, self).list_architecture_runs(limit)))

    def _kept_read(self, key: tuple[object, ...], read: Callable[[RowSource], T], engine: Callable[[], T]) -> T:
        """A read a long-lived process asks on every answer. While nothing was committed to the file
        since the last one (the probe's data_version stands) that answer is returned again; any
        commit, from any connection or process, makes the next call read again — through the
        probe's connection too, in one read transaction (the engine when the probe cannot read)."""
        version = self._probe.data_version() if self._probe is not None else None
        kept = self._kept.get(key)
        if version is not None and kept is not None and kept[0] == version:
            return cast(T, kept[1])
        found = self._probe.read_rows(read) if self._probe is not None else None
        if found is None:
            found = engine()
        if version is not None:  # read after the version: a commit in between moves it for the next call
            self._kept[key] = (version, found)
        return found

    def close(self) -> None:
        if self._probe is not None:
            self._probe.close()
        super().close()

    @staticmethod
    def _open(path: str, read_only: bool) -> Database:
        if read_only and path != ":memory:":
            db = Database(path, read_only=True)
            try:
                with db.read() as conn:
                    current = migrations.read_version(conn)
                if current >= migrations.LATEST:
                    migrations.upgrade(db)  # raises SchemaTooNew for a newer schema, writes nothing
                    return db
            except Exception:
                db.dispose()
                raise
            db.dispose()  # an older schema: upgrade it through a writable connection first
        db = Database(path)
        try:
            migrations.upgrade(db)
        except StoreError as exc:
            db.dispose()
            if read_only:
                raise StoreError(f"the database {path} has an older schema and cannot be upgraded here: {exc}",
                                 hint="run any orbitkb command once where the database is writable") from exc
            raise
        except Exception:
            db.dispose()
            raise
        return db

    @property
    def path(self) -> str:
        return self._path

    def __enter__(self) -> SqliteKnowledgeStore:
        return self


def _writable(path: Path) -> bool:
    """False for an existing database this process may not write: SQLite writes the file and, in
    WAL mode, its ``-wal`` and ``-shm`` beside it (a missing file is created: writable)."""
    if not path.is_file():
        return True
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
