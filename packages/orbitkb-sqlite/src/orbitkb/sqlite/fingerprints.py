"""The snapshot fingerprint (and each repository's newest index status) read through a connection
of its own, without SQLAlchemy.

A long-lived process (the MCP server, the UI) asks for the fingerprint before every answer, to
know whether its kept SystemModel is still the snapshot. Through the engine that read costs a pool
checkout, a transaction and a compiled statement — ~0.2 ms of CPU, more than many answers take from
the kept model; here it is one indexed SELECT on a dedicated read-only sqlite3 connection in
autocommit mode (each read sees the latest commit of any process, a restore included, and no read
transaction stays open to hold back the WAL checkpoint). Listing the repositories asks for each
one's newest index status on every answer too: the same connection reads it. So does SQLite's
``data_version``, which moves whenever any other connection (of any process) commits to the file:
a reader keeps what it read last while it stands (the change history of every change surface),
and reads it again here, in one read transaction, when it moved (``read_rows``).
"""

from __future__ import annotations

import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.dialects import sqlite as sqlite_dialect

from orbitkb.sql.runs import LATEST_STATUSES_SQL
from orbitkb.sql.snapshot import INITIAL, TOKEN_KEY
from orbitkb.sqlite.engine import BUSY_TIMEOUT_MS

_QUERY = "SELECT value FROM schema_meta WHERE key = ?"
_DIALECT = sqlite_dialect.dialect()
T = TypeVar("T")
#: a statement (kept, so its id is not reused), its SQL text, its parameters in order, their bound values
_Compiled = tuple[Any, str, tuple[str, ...], dict[str, Any]]


class FingerprintProbe:
    """``FingerprintProbe(path).read()`` — the snapshot token of the database file at ``path``, or
    None when it cannot be read here (the caller then asks the engine, which names the error).
    Plain ``mode=ro``, never ``immutable``: another process may write this file at any time."""

    def __init__(self, path: str) -> None:
        self._url = f"file:{urllib.parse.quote(str(Path(path).expanduser()))}?mode=ro"
        self._conn: sqlite3.Connection | None = None
        self._unusable = False
        self._lock = threading.Lock()
        self._generation = 0  # counts the connections opened: a data_version is only compared within one
        self._compiled: dict[int, _Compiled] = {}  # the SQL text of each statement read_rows was given

    def read(self) -> str | None:
        rows = self._rows(_QUERY, (TOKEN_KEY,))
        if rows is None:
            return None
        return str(rows[0][0]) if rows and rows[0][0] else INITIAL

    def latest_index_statuses(self) -> dict[str, str] | None:
        """Repository -> the status of its newest index run, or None when it cannot be read here."""
        rows = self._rows(LATEST_STATUSES_SQL, ())
        return None if rows is None else {str(repository): str(status) for repository, status in rows}

    def data_version(self) -> tuple[int, int] | None:
        """A token that moves whenever another connection, of this process or any other, commits to
        the file (a restore included), or None when it cannot be read here. The probe itself never
        writes: an equal token means nothing was committed in between."""
        read = self._read("PRAGMA data_version", ())
        if read is None or not read[1]:
            return None
        return read[0], int(str(read[1][0][0]))

    def read_rows(self, reader: Callable[[_ProbeRows], T]) -> T | None:
        """``reader(rows)`` within one read transaction on this connection (a consistent snapshot,
        ended at once), or None when the file cannot be read here (the caller asks the engine)."""
        with self._lock:
            if self._unusable:
                return None
            try:
                conn = self._connect()
                conn.execute("BEGIN")
                try:
                    return reader(_ProbeRows(conn, self._compiled))
                finally:
                    conn.execute("COMMIT")
            except sqlite3.Error:
                self._drop()
                return None

    def _connect(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = sqlite3.connect(self._url, uri=True, isolation_level=None,
                                         check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
            self._generation += 1
        return self._conn

    def _rows(self, query: str, params: tuple[str, ...]) -> list[tuple[object, ...]] | None:
        read = self._read(query, params)
        return None if read is None else read[1]

    def _read(self, query: str, params: tuple[str, ...]) -> tuple[int, list[tuple[object, ...]]] | None:
        """(the connection's generation, the rows), or None when the file cannot be read here."""
        with self._lock:
            if self._unusable:
                return None
            try:
                rows = self._connect().execute(query, params).fetchall()  # to the end: the read is over
                return self._generation, rows
            except sqlite3.Error:
                # a file this probe cannot open read-only (a read-only mount without the WAL index the
                # engine opens as immutable) stays with the engine; any other error is retried next time
                self._unusable = self._conn is None
                self._drop()
                return None

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        with self._lock:
            self._drop()


class _ProbeRows:
    """A ``RowSource`` (orbitkb.sql.rows) on the probe's connection: each statement, built once,
    compiled once to SQLite's text; an expanding IN parameter becomes one placeholder per value."""

    def __init__(self, conn: sqlite3.Connection, compiled: dict[int, _Compiled]) -> None:
        self._conn, self._compiled = conn, compiled

    def rows(self, statement: Any, expanding: Mapping[str, Sequence[Any]] | None = None) -> list[Mapping[str, Any]]:
        cursor = self._execute(statement, expanding)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def tuples(self, statement: Any) -> list[tuple[Any, ...]]:
        return list(self._execute(statement, None).fetchall())

    def _execute(self, statement: Any, expanding: Mapping[str, Sequence[Any]] | None) -> sqlite3.Cursor:
        found = self._compiled.get(id(statement))
        if found is None or found[0] is not statement:
            compiled = statement.compile(dialect=_DIALECT)
            found = (statement, str(compiled), tuple(compiled.positiontup or ()), dict(compiled.params))
            self._compiled[id(statement)] = found
        _, sql, order, bound = found
        params: list[Any] = []
        for name in order:
            values = (expanding or {}).get(name)
            if values is None:
                params.append(bound[name])
                continue
            if not values:
                raise ValueError(f"the expanding parameter {name} needs at least one value")
            sql = sql.replace(f"__[POSTCOMPILE_{name}]", ", ".join("?" * len(values)), 1)
            params.extend(values)
        return self._conn.execute(sql, params)
