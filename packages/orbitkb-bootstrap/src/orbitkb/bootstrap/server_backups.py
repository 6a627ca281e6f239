"""Backups of a knowledge base on a PostgreSQL server: a logical copy into one SQLite backup file,
and back — ``orbitkb backup`` / ``restore`` when ``--db`` is a ``postgresql://`` URL.

Why a copy through the stores rather than ``pg_dump``/``pg_restore``: the file is the one format
``orbitkb restore`` already checks (an undamaged orbitkb database of a schema this release
understands) and restores into either store; no client binaries of the server's major version
are needed on the machine; the backup is read in one REPEATABLE READ snapshot by a role that may
only read; and a restore is one transaction needing only the indexer's grants (no DROP, no
ownership): other indexers wait for it, readers see the old knowledge base until it commits and
the new one after (the snapshot token moves, so servers reload), never half of it.

The backup is written beside its destination and renamed into place once sealed and checked.
A restore first copies the live knowledge base to ``<database>.before-restore-<time>.db`` beside
the restored file (when it holds anything), and reads the backup through a private copy, so an
older backup is upgraded there and the user's file is never changed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.errors import InvalidInput, PathNotFound, SchemaTooNew, StoreError
from orbitkb.domain.ports import BackupReport, KnowledgeStore


class ServerBackups:
    """``ServerBackups(settings, make_store)``: backup and restore of the PostgreSQL knowledge base
    at ``settings``; ``make_store`` opens a store for given settings (the composition root's)."""

    def __init__(self, settings: Settings, make_store: Callable[[Settings], KnowledgeStore]) -> None:
        self.settings = settings
        self.make_store = make_store

    def backup(self, destination: str, overwrite: bool = False) -> BackupReport:
        return self._backup(destination, overwrite)[0]

    def _backup(self, destination: str, overwrite: bool) -> tuple[BackupReport, int]:
        """The report and how many rows were copied."""
        from orbitkb.sql.copy import copy_store
        from orbitkb.sqlite.backup import destination_of, inspect, seal
        from orbitkb.sqlite.store import SqliteKnowledgeStore

        dest = destination_of(destination, overwrite)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
        _remove(tmp)
        try:
            live = self.make_store(Settings(db_path=self.settings.db_path, read_only=True))
            try:
                file = SqliteKnowledgeStore(str(tmp))
                try:
                    rows = copy_store(live, file, self.settings.db_label, str(dest)).total  # type: ignore[arg-type]
                finally:
                    file.close()
            finally:
                live.close()
            seal(str(tmp))
            version, repositories = inspect(str(tmp))
            os.replace(tmp, dest)
        finally:
            _remove(tmp)
        return BackupReport(str(dest), dest.stat().st_size, version, repositories), rows

    def restore(self, source: str) -> BackupReport:
        from orbitkb.sql.copy import copy_store
        from orbitkb.sqlite.backup import inspect
        from orbitkb.sqlite.store import SqliteKnowledgeStore

        src = Path(source).expanduser()
        if not src.exists():
            raise PathNotFound(f"backup file does not exist: {source}")
        if not src.is_file():
            raise PathNotFound(f"not a file: {source}", hint="pass a file written by orbitkb backup")
        try:
            version, repositories = inspect(str(src))  # refuses anything but a usable orbitkb file
        except SchemaTooNew:
            raise
        except StoreError as exc:
            raise InvalidInput(f"{exc}; nothing was restored", hint="pass a file written by orbitkb backup") from None
        live = self.make_store(self.settings)  # a new database gets its schema, an older one is upgraded
        work = Path(tempfile.mkdtemp(prefix="orbitkb-restore-"))
        previous: str | None = None
        try:
            previous = self._keep_previous(src.parent)
            copy = work / "backup.db"
            shutil.copyfile(src, copy)  # opening upgrades an older schema: never in the user's file
            backup = SqliteKnowledgeStore(str(copy))
            try:
                copy_store(backup, live, str(src), self.settings.db_label, replace=True)  # type: ignore[arg-type]
            finally:
                backup.close()
        except StoreError as exc:
            kept = f"; the previous knowledge base is kept at {previous}" if previous else ""
            raise StoreError(f"restore from {source} failed: {exc}{kept}", hint=exc.hint) from exc
        finally:
            live.close()
            shutil.rmtree(work, ignore_errors=True)
        return BackupReport(self.settings.db_label, src.stat().st_size, version, repositories, previous)

    def _keep_previous(self, folder: Path) -> str | None:
        """A backup of the live knowledge base beside the restored file; None when it held nothing."""
        stamp = time.strftime("%Y%m%dT%H%M%S")
        path = folder / f"{_database_name(self.settings.db_path)}.before-restore-{stamp}.db"
        _, rows = self._backup(str(path), overwrite=True)
        if not rows:
            _remove(path)
            return None
        return str(path)


def _database_name(url: str) -> str:
    """The database of a URL, as a file name (never the user or password)."""
    name = urlsplit(url).path.strip("/") or "postgres"
    return re.sub(r"[^\w.-]", "_", name)


def _remove(path: Path) -> None:
    for leftover in (path, Path(f"{path}-journal"), Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()
