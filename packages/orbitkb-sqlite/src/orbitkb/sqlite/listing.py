"""A read-only SQLite store that answers the listing questions with the standard library's sqlite3.

`orbitkb list` asks three things — the services, the repositories, the APIs per service — and
SQLAlchemy's import alone costs more than a third of that command. ``ListingSqliteStore`` reads
those three straight from the file, with the same columns, orders and row decoding as the full
store (column = attribute; a nested value is JSON text), and opens the full ``SqliteKnowledgeStore``
for anything else: every other question, a file of another schema version (upgraded, or refused
as too new, there), a missing file, or any sqlite3 error. The store contract holds it to the full
store's answers (tests/contract/test_listing_contract.py).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import sqlite3
import typing
import urllib.parse
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import attrs
import cattrs

from orbitkb.domain.model import Repository, Service

T = TypeVar("T")
#: Seconds a read waits for a writer's lock (the full store's busy timeout).
BUSY_TIMEOUT_S = 10.0
_MIGRATION = re.compile(r"^v(\d{4})_\w+\.py$")
_converter = cattrs.Converter()


@cache
def latest_version() -> int:
    """The schema version this store writes: its newest migration, read from the file names in the
    migrations folder (importing the package would import SQLAlchemy)."""
    spec = importlib.util.find_spec("orbitkb.sqlite.migrations")
    folders = list(spec.submodule_search_locations or ()) if spec is not None else []
    return max(int(m.group(1)) for folder in folders for m in map(_MIGRATION.match, os.listdir(folder)) if m)


_COLUMNS: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def columns_of(cls: type) -> tuple[tuple[str, ...], frozenset[str]]:
    """The columns of ``cls`` (its attributes) and those holding JSON: anything not a scalar."""
    if cls not in _COLUMNS:
        attrs.resolve_types(cls)
        fields = attrs.fields(cls)
        nested = frozenset(f.name for f in fields if typing.get_origin(f.type) in (tuple, list, dict)
                           or (isinstance(f.type, type) and attrs.has(f.type)))
        _COLUMNS[cls] = (tuple(f.name for f in fields), nested)
    return _COLUMNS[cls]


def _decode(row: sqlite3.Row, cls: type[T]) -> T:
    _, nested = columns_of(cls)
    data = {k: (json.loads(row[k]) if row[k] is not None else []) if k in nested else row[k] for k in row.keys()}
    return _converter.structure(data, cls)


class ListingSqliteStore:
    """``ListingSqliteStore(path)``: a read-only view of an existing database file; ``full`` opens
    the store that answers everything else (default: ``SqliteKnowledgeStore(path, read_only=True)``,
    the composition root passes its own so one process opens one store)."""

    def __init__(self, path: str, full: Callable[[], Any] | None = None) -> None:
        self._path = path
        self._open_full = full
        self._full: Any = None
        self._conn: sqlite3.Connection | None = None
        self._quick = True

    # -- the three listing questions, from sqlite3 -------------------------------------------

    def list_services(self, repository: str | None = None) -> list[Service]:
        where, params = ("WHERE repository = ?", (repository,)) if repository is not None else ("", ())
        found = self._select(Service, "services", f"{where} ORDER BY repository, name, id", params)
        if found is None:
            found = self._store().list_services(repository)
        return found

    def list_repositories(self) -> list[Repository]:
        found = self._select(Repository, "repositories", "ORDER BY name", ())
        if found is None:
            found = self._store().list_repositories()
        return found

    def count_apis(self) -> dict[str, int]:
        conn = self._open()
        if conn is not None:
            try:
                return {sid: int(n) for sid, n in conn.execute("SELECT service_id, count(*) FROM apis GROUP BY service_id")}
            except sqlite3.Error:
                self._give_up()
        counts: dict[str, int] = self._store().count_apis()
        return counts

    # -- everything else, from the full store ------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._store(), name)

    def close(self) -> None:
        self._give_up()
        if self._full is not None:
            self._full.close()

    def __enter__(self) -> ListingSqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def path(self) -> str:
        return self._path

    def _store(self) -> Any:
        if self._full is None:
            if self._open_full is not None:
                self._full = self._open_full()
            else:
                from orbitkb.sqlite.store import SqliteKnowledgeStore

                self._full = SqliteKnowledgeStore(self._path, read_only=True)
        return self._full

    def _select(self, cls: type[T], table: str, rest: str, params: tuple[Any, ...]) -> list[T] | None:
        conn = self._open()
        if conn is None:
            return None
        names, _ = columns_of(cls)
        try:
            rows = conn.execute(f"SELECT {', '.join(names)} FROM {table} {rest}", params).fetchall()
        except (sqlite3.Error, ValueError):  # ValueError: a name sqlite3 cannot encode (lone surrogates)
            self._give_up()
            return None
        return [_decode(row, cls) for row in rows]

    def _open(self) -> sqlite3.Connection | None:
        """The connection, or None when the full store must answer (see the module docstring)."""
        if not self._quick:
            return None
        if self._conn is None:
            target = Path(self._path).expanduser()
            if self._path == ":memory:" or not target.is_file():
                self._quick = False
                return None
            try:
                conn = sqlite3.connect(f"file:{urllib.parse.quote(str(target))}?mode=ro", uri=True,
                                       timeout=BUSY_TIMEOUT_S, check_same_thread=False)
                conn.row_factory = sqlite3.Row
                found = conn.execute("SELECT value FROM schema_meta WHERE key = 'version'").fetchone()
            except sqlite3.Error:  # not ours, a read-only disk without the WAL index, ...: the full store says
                self._quick = False
                return None
            if found is None or str(found[0]) != str(latest_version()):
                conn.close()
                self._quick = False
                return None
            self._conn = conn
        return self._conn

    def _give_up(self) -> None:
        self._quick = False
        if self._conn is not None:
            self._conn.close()
            self._conn = None
