"""The snapshot fingerprint read through a connection of its own, without SQLAlchemy.

A long-lived process (the MCP server, the UI) asks for the fingerprint before every answer, to
know whether its kept SystemModel is still the snapshot. Through the engine that read costs a pool
checkout, a transaction and a compiled statement — ~0.2 ms of CPU, more than many answers take from
the kept model; here it is one indexed SELECT on a dedicated read-only sqlite3 connection in
autocommit mode (each read sees the latest commit of any process, a restore included, and no read
transaction stays open to hold back the WAL checkpoint).
"""

from __future__ import annotations

import sqlite3
import threading
import urllib.parse
from pathlib import Path

from orbitkb.sql.snapshot import INITIAL, TOKEN_KEY
from orbitkb.sqlite.engine import BUSY_TIMEOUT_MS

_QUERY = "SELECT value FROM schema_meta WHERE key = ?"


class FingerprintProbe:
    """``FingerprintProbe(path).read()`` — the snapshot token of the database file at ``path``, or
    None when it cannot be read here (the caller then asks the engine, which names the error).
    Plain ``mode=ro``, never ``immutable``: another process may write this file at any time."""

    def __init__(self, path: str) -> None:
        self._url = f"file:{urllib.parse.quote(str(Path(path).expanduser()))}?mode=ro"
        self._conn: sqlite3.Connection | None = None
        self._unusable = False
        self._lock = threading.Lock()

    def read(self) -> str | None:
        with self._lock:
            if self._unusable:
                return None
            try:
                if self._conn is None:
                    self._conn = sqlite3.connect(self._url, uri=True, isolation_level=None,
                                                 check_same_thread=False, timeout=BUSY_TIMEOUT_MS / 1000)
                rows = self._conn.execute(_QUERY, (TOKEN_KEY,)).fetchall()  # to the end: the read is over
            except sqlite3.Error:
                # a file this probe cannot open read-only (a read-only mount without the WAL index the
                # engine opens as immutable) stays with the engine; any other error is retried next time
                self._unusable = self._conn is None
                self._drop()
                return None
        return str(rows[0][0]) if rows and rows[0][0] else INITIAL

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        with self._lock:
            self._drop()
