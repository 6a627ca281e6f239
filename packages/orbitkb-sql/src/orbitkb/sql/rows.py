"""Where a reader asked on every answer gets its rows: an engine connection, or a store's own path.

``RowSource.rows(statement, expanding)`` returns the rows of a statement built once (its values
bound in it; ``expanding`` gives the lists of its expanding IN parameters, never empty) as
mappings by column name; ``tuples(statement)`` as plain tuples (a long list of ids or hashes). ``EngineRows(conn)`` reads through SQLAlchemy; a store may offer a faster
source of the same rows (orbitkb.sqlite reads the change history through its probe's connection).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from sqlalchemy.engine import Connection


class RowSource(Protocol):
    def rows(self, statement: Any, expanding: Mapping[str, Sequence[Any]] | None = None) -> list[Mapping[str, Any]]:
        ...

    def tuples(self, statement: Any) -> list[tuple[Any, ...]]:
        ...


class EngineRows:
    """``EngineRows(conn)``: the rows through a SQLAlchemy connection (within its transaction)."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def rows(self, statement: Any, expanding: Mapping[str, Sequence[Any]] | None = None) -> list[Mapping[str, Any]]:
        params = {name: list(values) for name, values in (expanding or {}).items()}
        return cast("list[Mapping[str, Any]]", list(self.conn.execute(statement, params).mappings().all()))

    def tuples(self, statement: Any) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self.conn.execute(statement)]
