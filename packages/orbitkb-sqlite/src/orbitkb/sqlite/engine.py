"""The SQLite engine: connection pragmas, pooling and transaction boundaries.

This is the only module that knows how SQLite connections must be configured. Every connection
gets WAL, a busy timeout and foreign keys (an event listener, so pooled connections are never
missed). Writes open ``BEGIN IMMEDIATE``: taking the write lock up front lets SQLite's busy
handler wait for a concurrent writer, where a deferred transaction upgrading from a read lock
would fail at once with "database is locked".
"""

from __future__ import annotations

import sqlite3
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import QueuePool, StaticPool

from orbitkb.domain.errors import OrbitkbError, StoreError, StoreReadOnly
from orbitkb.sql.parameters import cleaner, without_surrogates
from orbitkb.sql.unit import first_line

MEMORY = ":memory:"
BUSY_TIMEOUT_MS = 10_000
_WRITE = "orbitkb_write"
#: Driver messages users meet, with what to do about them.
_HINTS = (
    (
        "file is not a database",
        "this file is not an orbitkb database: choose another with --db or ORBITKB_DB",
    ),
    ("malformed", "the database file is damaged: move it away and index again"),
    ("database is locked", "another orbitkb process kept the database busy for 10 s: retry"),
    ("readonly", "the database file or its folder is not writable"),
    ("unable to open", "the database folder is missing or not accessible"),
)
#: SQLITE_READONLY (the primary result code of every extended one): this connection may not write
#: (a read-only file or folder, ``mode=ro``, ``query_only``).
_READ_ONLY = 8


def _configure(dbapi_connection: Any, _record: Any) -> None:
    # Hand transaction control to SQLAlchemy's "begin" event (the driver's legacy mode would
    # skip BEGIN before SELECT and DDL, breaking transactional migrations).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = NORMAL")
    finally:
        cursor.close()


def _configure_read_only(dbapi_connection: Any, _record: Any) -> None:
    # No journal or synchronous pragma: setting either may need to write, and a read-only file
    # keeps whatever journal mode the writer chose.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA query_only = ON")
    finally:
        cursor.close()


def _read_only_url(target: Path) -> str:
    """``mode=ro`` where SQLite can still share the WAL index; ``immutable=1`` where it cannot (a
    read-only filesystem without the -shm file: nothing else can be writing there anyway)."""
    quoted = urllib.parse.quote(str(target))
    probe = sqlite3.connect(f"file:{quoted}?mode=ro", uri=True)
    try:
        probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
        mode = "mode=ro"
    except sqlite3.OperationalError:
        mode = "mode=ro&immutable=1"
    finally:
        probe.close()
    return f"file:{quoted}?{mode}"


def _clean(value: Any) -> Any:
    return without_surrogates(value) if isinstance(value, str) else value


_clean_parameters = cleaner(_clean)


def _begin(conn: Connection) -> None:
    immediate = conn.get_execution_options().get(_WRITE, False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def create_engine(path: str, read_only: bool = False) -> Engine:
    """An engine for ``path`` (a file, created with its parent folder, or ``":memory:"``).
    ``read_only`` opens an existing file without writing anything, not even a folder."""
    if read_only and path != MEMORY:
        url = _read_only_url(Path(path).expanduser())
        engine = sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(
            url, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000),
            poolclass=QueuePool, pool_size=8, max_overflow=8)
        event.listen(engine, "connect", _configure_read_only)
        event.listen(engine, "begin", _begin)
        event.listen(engine, "before_cursor_execute", _clean_parameters, retval=True)
        return engine
    if path == MEMORY:
        # One shared connection, or every checkout would see a different empty database.
        engine = sa.create_engine(
            "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
        )
    else:
        target = Path(path).expanduser()
        if target.is_dir():
            raise StoreError(f"{target} is a folder, not a database file")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the folder for the database {target}: {exc}") from exc
        engine = sa.create_engine(
            sa.URL.create("sqlite", database=str(target)),
            connect_args={"check_same_thread": False, "timeout": BUSY_TIMEOUT_MS / 1000},
            pool_size=8,
            max_overflow=8,
        )
    event.listen(engine, "connect", _configure)
    event.listen(engine, "begin", _begin)
    event.listen(engine, "before_cursor_execute", _clean_parameters, retval=True)
    return engine


class Database:
    """An engine plus the two ways of using it: ``read()`` and ``write()`` (one transaction)."""

    def __init__(self, path: str, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only and path != MEMORY
        self.engine = create_engine(path, self.read_only)
        # ":memory:" shares one connection between threads: serialize the units of work on it.
        self._lock: threading.RLock | None = threading.RLock() if path == MEMORY else None

    @contextmanager
    def _unit(self, write: bool) -> Iterator[Connection]:
        if self._lock is not None:
            self._lock.acquire()
        try:
            with self.engine.connect() as conn:
                if write:
                    conn.execution_options(**{_WRITE: True})
                with conn.begin():
                    yield conn
        except OrbitkbError:
            raise
        except sa.exc.SQLAlchemyError as exc:
            reason = first_line(exc)
            hint = next((h for known, h in _HINTS if known in reason), None)
            code = getattr(getattr(exc, "orig", None), "sqlite_errorcode", None)
            error = StoreReadOnly if isinstance(code, int) and code & 0xFF == _READ_ONLY else StoreError
            raise error(f"database error on {self.path}: {reason}", hint=hint) from exc
        finally:
            if self._lock is not None:
                self._lock.release()

    def read(self) -> AbstractContextManager[Connection]:
        """A read-only unit of work (one consistent snapshot)."""
        return self._unit(write=False)

    def write(self) -> AbstractContextManager[Connection]:
        """A write transaction: committed on success, rolled back on any exception."""
        return self._unit(write=True)

    def dispose(self) -> None:
        self.engine.dispose()
