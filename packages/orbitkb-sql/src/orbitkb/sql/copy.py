"""Copy a whole knowledge base between SQL stores (SQLite <-> PostgreSQL): every table row — facts,
files, gaps, runs, feedback, verifications, caches, embeddings — with its id, then the search
documents through the target's own full-text module, verified by counting both sides.

The source is read in one consistent unit; the target is written in one transaction, so a failed
copy leaves it as it was. The target must be empty: merging two knowledge bases is not a copy.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from attrs import frozen
from sqlalchemy.engine import Connection

from orbitkb.domain.errors import RepositoryConflict, StoreError
from orbitkb.domain.ports import SearchDocument
from orbitkb.sql import caches, snapshot, tables, vectors
from orbitkb.sql.store import SqlKnowledgeStore
from orbitkb.sql.terms import UNINDEXED, WEIGHTS

SEARCH = "search_docs"
SEARCH_COLUMNS = tuple(name for name, _ in WEIGHTS) + UNINDEXED
BATCH = 1000
#: Rows of schema_meta are the target's own (its version, its snapshot tokens).
SKIPPED = {tables.schema_meta.name}


@frozen
class CopyReport:
    source: str
    target: str
    #: rows per table (and ``search_docs``), equal on both sides
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _tables() -> list[sa.Table]:
    return [t for t in tables.metadata.sorted_tables if t.name not in SKIPPED]


def _rows(conn: Connection, table: sa.Table) -> Iterator[list[dict[str, Any]]]:
    order = list(table.primary_key.columns)
    result = conn.execute(sa.select(table).order_by(*order)).mappings()
    batch: list[dict[str, Any]] = []
    for row in result:
        batch.append(_portable(table, dict(row)))
        if len(batch) >= BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _portable(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    """A row any dialect accepts: a binary column an old tool wrote as text is packed as bytes."""
    for column in table.columns:
        if isinstance(column.type, sa.LargeBinary) and isinstance(row[column.name], str):
            row[column.name] = caches.pack(row[column.name])
    return row


def _count(conn: Connection, name: str) -> int:
    return int(conn.execute(sa.text(f"SELECT count(*) FROM {name}")).scalar() or 0)


def _documents(conn: Connection) -> dict[str, list[SearchDocument]]:
    by_repository: dict[str, list[SearchDocument]] = {}
    statement = sa.text(f"SELECT {', '.join(SEARCH_COLUMNS)} FROM {SEARCH} ORDER BY repository, kind, ref_id")
    for row in conn.execute(statement).mappings():
        doc = SearchDocument(row["kind"], row["ref_id"], row["service_id"], row["service"], row["name"],
                             row["name_text"] or "", row["keywords"] or "", row["text"] or "")
        by_repository.setdefault(row["repository"], []).append(doc)
    return by_repository


def _reset_sequences(conn: Connection) -> None:
    """After explicit ids, PostgreSQL's serial sequences must continue past them."""
    if conn.dialect.name != "postgresql":
        return
    for table in _tables():
        for column in table.primary_key.columns:
            if column.autoincrement is True:
                conn.execute(sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                    f"COALESCE((SELECT max({column.name}) FROM {table.name}), 0) + 1, false)"))


def _clear(target: SqlKnowledgeStore, conn: Connection) -> None:
    """Empty ``target`` inside the copy's transaction. PostgreSQL first locks every table against
    other writers (an indexer waits for the restore); readers keep their snapshot until it commits."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text(f"LOCK TABLE {', '.join([t.name for t in _tables()] + [SEARCH])} IN EXCLUSIVE MODE"))
    for repository in list(conn.execute(sa.text(f"SELECT DISTINCT repository FROM {SEARCH}")).scalars()):
        target._search.delete_repository(conn, repository)
    for table in reversed(_tables()):
        conn.execute(sa.delete(table))


def copy_store(source: SqlKnowledgeStore, target: SqlKnowledgeStore, source_label: str = "source",
               target_label: str = "target", *, replace: bool = False) -> CopyReport:
    """Copy everything in ``source`` into the empty ``target``; raises RepositoryConflict when the target
    holds anything, StoreError when the counts differ afterwards (nothing is then committed).
    ``replace`` (a restore) empties the target instead, in the same transaction."""
    counts: dict[str, int] = {}
    with source._db.read() as src, target._db.write() as dst:
        if replace:
            _clear(target, dst)
        busy = [t.name for t in _tables() if _count(dst, t.name)] + ([SEARCH] if _count(dst, SEARCH) else [])
        if busy:
            raise RepositoryConflict(f"{target_label} is not empty ({', '.join(busy[:4])} hold rows): copy fills an empty "
                           "knowledge base", hint="copy into a new database, or remove its repositories first")
        for table in _tables():
            for batch in _rows(src, table):
                dst.execute(sa.insert(table), batch)
            counts[table.name] = _count(src, table.name)
        for repository, documents in _documents(src).items():
            target._search.insert(dst, repository, documents)
        counts[SEARCH] = _count(src, SEARCH)
        _reset_sequences(dst)
        snapshot.touch(dst)
        vectors.touch(dst)
        copied = {name: _count(dst, name) for name in counts}
        wrong = {name: (counts[name], copied[name]) for name in counts if counts[name] != copied[name]}
        if wrong:
            detail = ", ".join(f"{n}: {a} read, {b} written" for n, (a, b) in sorted(wrong.items()))
            raise StoreError(f"the copy does not match its source ({detail}); {target_label} is left unchanged")
    return CopyReport(source_label, target_label, counts)
