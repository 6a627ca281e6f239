"""The PostgreSQL engine: URL handling, isolation levels and transaction boundaries.

Reads run in REPEATABLE READ, READ ONLY transactions: every statement of a unit (a whole
``load_model``) sees one snapshot, so a reader never sees half of another process's index. Writes
run in READ COMMITTED; writers of one repository are serialised by an advisory lock (``store``).
Errors name the host and database only, never the user or password of the URL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import OrbitkbError, StoreError, StoreReadOnly
from orbitkb.sql.parameters import cleaner, without_surrogates
from orbitkb.sql.unit import first_line

#: Driver messages users meet, with what to do about them.
_HINTS = (
    ("password authentication failed", "check the user and password (URL, PGPASSWORD or ~/.pgpass)"),
    ("does not exist", "create the database first (createdb), or fix the URL"),
    ("Connection refused", "is the PostgreSQL server running and reachable?"),
    ("No such file or directory", "is the PostgreSQL server running and reachable?"),
    ("permission denied", "this role lacks a grant: see docs/team-setup.md (read-only agents only read)"),
    ("read-only transaction", "this connection may only read"),
    ("lock timeout", "another indexer of the same repository holds its lock: retry when it is done"),
)
#: SQLSTATEs meaning this role or connection may not write: insufficient_privilege (a role with
#: SELECT only), read_only_sql_transaction (a read-only open).
_READ_ONLY = ("42501", "25006")


def parse_url(url: str) -> sa.URL:
    """``postgresql://…`` as a URL for the psycopg 3 driver; anything else is a StoreError."""
    try:
        parsed = sa.make_url(url)
    except sa.exc.ArgumentError as exc:
        raise StoreError("not a PostgreSQL URL (expected postgresql://[user@]host[:port]/database)") from exc
    if parsed.get_backend_name() not in ("postgresql", "postgres"):
        raise StoreError(f"not a PostgreSQL URL: scheme {parsed.drivername!r}")
    return parsed.set(drivername="postgresql+psycopg")


def describe(url: sa.URL) -> str:
    """Where the database is, without credentials: ``database on host[:port]``."""
    host = url.host or (url.query.get("host") if url.query else None) or "the local socket"
    if isinstance(host, tuple):
        host = host[0]
    port = f":{url.port}" if url.port else ""
    return f"{url.database or '(default database)'} on {host}{port}"


def _clean(value: Any) -> Any:
    """PostgreSQL text holds neither NUL nor a lone surrogate: U+FFFD stands in for both."""
    if isinstance(value, str):
        return without_surrogates(value.replace("\x00", "\ufffd") if "\x00" in value else value)
    return value


_clean_parameters = cleaner(_clean)


class Database:
    """An engine plus ``read()`` (one REPEATABLE READ snapshot) and ``write()`` (one transaction).
    ``path`` is the credential-free description used in messages."""

    def __init__(self, url: str, read_only: bool = False) -> None:
        self.url = parse_url(url)
        self.path = describe(self.url)
        self.read_only = read_only
        self.engine = sa.create_engine(
            self.url, pool_size=8, max_overflow=8, pool_pre_ping=True,
            connect_args={"connect_timeout": 10, "application_name": "orbitkb"},
        )
        event.listen(self.engine, "before_cursor_execute", _clean_parameters, retval=True)

    @contextmanager
    def _unit(self, write: bool) -> Iterator[Connection]:
        try:
            with self.engine.connect() as conn:
                if write and not self.read_only:
                    conn = conn.execution_options(isolation_level="READ COMMITTED")
                else:
                    conn = conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
                with conn.begin():
                    yield conn
        except OrbitkbError:
            raise
        except sa.exc.SQLAlchemyError as exc:
            reason = _first_line(exc)
            hint = next((h for known, h in _HINTS if known in reason), None)
            state = getattr(getattr(exc, "orig", None), "sqlstate", None)
            error = StoreReadOnly if state in _READ_ONLY else StoreError
            raise error(f"database error on {self.path}: {reason}", hint=hint) from exc

    def read(self) -> AbstractContextManager[Connection]:
        return self._unit(write=False)

    def write(self) -> AbstractContextManager[Connection]:
        return self._unit(write=True)

    def dispose(self) -> None:
        self.engine.dispose()


def _first_line(exc: BaseException) -> str:
    text = first_line(exc)
    # libpq repeats the connection string in some messages: keep no password in ours.
    return re.sub(r"password=\S+", "password=***", re.sub(r"://[^@/\s]*@", "://***@", text))
