"""Backups through SQLite's online backup API (``sqlite3.Connection.backup``).

The copy is taken in one step under a read transaction: consistent even while another process
writes (WAL lets the writer go on), and it includes what is still only in the ``-wal`` file — a
plain file copy would miss it or tear it. The copy is written next to its destination, checked,
switched to a single-file journal and renamed into place, so a half-written backup never exists.

Restore checks the file first (an SQLite database, undamaged, with an orbitkb schema version this
release understands) and refuses anything else before touching the live database; it then copies
the live database aside (``<db>.before-restore-<time>``) and copies the backup into it with the
same API — into the live file, so a server that has it open sees the restored knowledge at its
next read. An older schema is upgraded in place at once, as any database is on open: a server
holding the file open reads it at the schema it knows (search documents in their kind bands).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from orbitkb.domain.errors import InvalidInput, PathNotFound, RepositoryConflict, SchemaTooNew, StoreError
from orbitkb.domain.ports import BackupReport
from orbitkb.sql import snapshot, vectors
from orbitkb.sqlite.engine import BUSY_TIMEOUT_MS, Database
from orbitkb.sqlite.migrations import LATEST, upgrade

_HEADER = b"SQLite format 3\x00"


class SqliteBackups:
    """``SqliteBackups(db_path)``: backup and restore of the database file at ``db_path``."""

    def __init__(self, db_path: str) -> None:
        self.db_path = str(Path(db_path).expanduser())

    def backup(self, destination: str, overwrite: bool = False) -> BackupReport:
        if self.db_path == ":memory:":
            raise StoreError("an in-memory database cannot be backed up")
        if not os.path.isfile(self.db_path):
            raise PathNotFound(f"no database at {self.db_path}: nothing to back up",
                               hint="index a repository first, or choose the database with --db")
        dest = destination_of(destination, overwrite)
        if dest.exists() and os.path.samefile(dest, self.db_path):
            raise RepositoryConflict(f"{dest} is the live database itself")
        version, repositories = inspect(self.db_path, live=True)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.partial")
        try:
            with _open(self.db_path, readonly=True) as src, _open(str(tmp)) as dst:
                src.backup(dst)  # one step: one consistent snapshot, WAL content included
                dst.execute("PRAGMA journal_mode = DELETE")  # a self-contained single file
                _check_integrity(dst, str(dest))
            _fsync(tmp)
            os.replace(tmp, dest)
        except sqlite3.Error as exc:
            raise StoreError(f"backup to {dest} failed: {exc}") from exc
        finally:
            for leftover in (tmp, Path(f"{tmp}-journal")):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()
        return BackupReport(str(dest), dest.stat().st_size, version, repositories)

    def restore(self, source: str) -> BackupReport:
        if self.db_path == ":memory:":
            raise StoreError("cannot restore into an in-memory database")
        src_path = Path(source).expanduser()
        if not src_path.exists():
            raise PathNotFound(f"backup file does not exist: {source}")
        if not src_path.is_file():
            raise PathNotFound(f"not a file: {source}", hint="pass a file written by orbitkb backup")
        if os.path.exists(self.db_path) and os.path.samefile(src_path, self.db_path):
            raise RepositoryConflict(f"{source} is the live database itself")
        try:
            version, repositories = inspect(str(src_path))  # refuses anything but a usable orbitkb file
        except SchemaTooNew:
            raise
        except StoreError as exc:
            raise InvalidInput(f"{exc}; nothing was restored", hint="pass a file written by orbitkb backup") from None
        previous: str | None = None
        target = Path(self.db_path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_file() and target.stat().st_size > 0:
            stamp = time.strftime("%Y%m%dT%H%M%S")
            previous = str(target.with_name(f"{target.name}.before-restore-{stamp}"))
            SqliteBackups(self.db_path).backup(previous, overwrite=True)
        try:
            with _open(str(src_path), readonly=True) as src, _open(self.db_path) as dst:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = WAL")
                _check_integrity(dst, self.db_path)
                for key in (snapshot.TOKEN_KEY, vectors.TOKEN_KEY):  # processes holding the old one reload
                    dst.execute("INSERT OR REPLACE INTO schema_meta (key, value) VALUES (?, ?)", (key, uuid.uuid4().hex))
        except sqlite3.Error as exc:
            kept = f"; the previous database is kept at {previous}" if previous else ""
            raise StoreError(f"restore from {source} failed: {exc}{kept}") from exc
        if version < LATEST:
            db = Database(self.db_path)
            try:
                upgrade(db)
            finally:
                db.dispose()
        return BackupReport(self.db_path, target.stat().st_size, version, repositories, previous)


def destination_of(destination: str, overwrite: bool) -> Path:
    """The backup file to write: a file in an existing folder, never replaced unless asked."""
    dest = Path(destination).expanduser()
    if dest.is_dir():
        raise PathNotFound(f"{dest} is a folder", hint="pass the path of the backup file to write")
    if not dest.parent.is_dir():
        raise PathNotFound(f"the folder {dest.parent} does not exist")
    if os.path.lexists(dest) and not overwrite:
        raise RepositoryConflict(f"{dest} already exists", hint="choose another file, or pass --force to replace it")
    return dest


def seal(path: str) -> None:
    """Make the closed database at ``path`` one self-contained, checked file on disk (as a backup
    is): its write-ahead log folded in, a single-file journal, integrity checked, synced."""
    try:
        with _open(path) as conn:
            conn.execute("PRAGMA journal_mode = DELETE")
            _check_integrity(conn, path)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot finish the file {path}: {exc}") from exc
    _fsync(Path(path))


def inspect(path: str, live: bool = False) -> tuple[int, tuple[str, ...]]:
    """(schema version, repository names) of an orbitkb database file; StoreError / SchemaTooNew
    naming what is wrong when it is not one this release can use."""
    with open(path, "rb") as fh:
        header = fh.read(len(_HEADER))
    if header != _HEADER:
        raise StoreError(f"{path} is not an SQLite database (not an orbitkb backup)")
    try:
        with _open(path, readonly=True) as conn:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "schema_meta" not in tables or "repositories" not in tables:
                raise StoreError(f"{path} is an SQLite database but not an orbitkb one (no orbitkb schema)")
            row = conn.execute("SELECT value FROM schema_meta WHERE key = 'version'").fetchone()
            try:
                version = int(row[0]) if row else 0
            except ValueError:
                raise StoreError(f"{path} has a schema version that is not a number: {row[0]!r}") from None
            if version > LATEST:
                raise SchemaTooNew(
                    f"{path} has schema version {version}, newer than version {LATEST} that this orbitkb "
                    "understands", hint="upgrade orbitkb to restore it (nothing was changed)")
            if not live:
                _check_integrity(conn, path)
            names = tuple(r[0] for r in conn.execute("SELECT name FROM repositories ORDER BY name"))
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{path} cannot be read as an orbitkb database: {exc}") from exc
    return version, names


@contextlib.contextmanager
def _open(path: str, readonly: bool = False) -> Iterator[sqlite3.Connection]:
    uri = f"file:{quote(os.path.abspath(path))}" + ("?mode=ro" if readonly else "")
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        yield conn
    finally:
        conn.close()


def _check_integrity(conn: sqlite3.Connection, path: str) -> None:
    result = conn.execute("PRAGMA quick_check").fetchone()
    if not result or result[0] != "ok":
        raise StoreError(f"{path} is damaged: {result[0] if result else 'no answer to quick_check'}")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
