"""What the last index of a repository saw: its files with content hashes, and its gaps.

Indexed files are ordered by path; gaps by (repository, path, kind, reason).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.model import Gap
from orbitkb.domain.runs import IndexedFile
from orbitkb.sql import codec
from orbitkb.sql.tables import gaps, indexed_files


def replace_files(conn: Connection, repository: str, files: Sequence[IndexedFile]) -> None:
    conn.execute(sa.delete(indexed_files).where(indexed_files.c.repository == repository))
    # One row a path: a file listed twice (a caller's bug) must not abort the snapshot.
    unique = {f.path: f for f in reversed(files)}
    codec.insert_many(conn, indexed_files, [unique[p] for p in sorted(unique)], ())


def list_files(conn: Connection, repository: str) -> list[IndexedFile]:
    statement = (
        codec.select_for(indexed_files, IndexedFile)
        .where(indexed_files.c.repository == repository)
        .order_by(indexed_files.c.path)
    )
    return codec.fetch(conn, statement, IndexedFile, ())


def replace_gaps(conn: Connection, repository: str, found: Sequence[Gap]) -> None:
    conn.execute(sa.delete(gaps).where(gaps.c.repository == repository))
    codec.insert_many(conn, gaps, found, ())


def list_gaps(conn: Connection, repository: str | None = None) -> list[Gap]:
    statement = codec.select_for(gaps, Gap).order_by(
        gaps.c.repository, gaps.c.path, gaps.c.kind, gaps.c.reason, gaps.c.rowid_
    )
    if repository is not None:
        statement = statement.where(gaps.c.repository == repository)
    return codec.fetch(conn, statement, Gap, ())
