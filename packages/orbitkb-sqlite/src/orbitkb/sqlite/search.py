"""Full-text search over SearchDocuments: FTS5 with bm25 ranking — the only SQLite-specific SQL.

User terms never reach FTS5 syntax: each term is cut into word tokens (letters and digits only),
the tokens are wrapped in double quotes as one phrase and given a prefix star, and the phrases are
OR-ed. ``' OR '1'='1``, ``NEAR(``, ``"``, ``*`` or ``-x`` therefore search for their words or for
nothing, and the expression itself is a bound parameter.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import SearchHit
from orbitkb.sql.terms import MAX_LIMIT, UNINDEXED, WEIGHTS, best_field, phrases

TABLE = "search_docs"


def create_index(conn: Connection) -> None:
    """The FTS5 table (migration 1). A later layout change needs its own migration."""
    columns = [name for name, _ in WEIGHTS] + [f"{name} UNINDEXED" for name in UNINDEXED]
    conn.execute(
        sa.text(
            f"CREATE VIRTUAL TABLE {TABLE} USING fts5({', '.join(columns)}, "
            "tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')"
        )
    )


def match_expression(terms: Sequence[str]) -> str | None:
    found = phrases(terms)
    if not found:
        return None
    return " OR ".join('"' + " ".join(phrase) + '"*' for phrase in found)


def delete_repository(conn: Connection, repository: str) -> None:
    conn.execute(sa.text(f"DELETE FROM {TABLE} WHERE repository = :repository"), {"repository": repository})


def insert(conn: Connection, repository: str, documents: Sequence[SearchDocument]) -> None:
    if not documents:
        return
    names = [name for name, _ in WEIGHTS] + list(UNINDEXED)
    statement = sa.text(
        f"INSERT INTO {TABLE} ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})"
    )
    rows = [
        {
            "name_text": d.name_text,
            "keywords": d.keywords,
            "text": d.text,
            "kind": d.kind,
            "ref_id": d.ref_id,
            "service_id": d.service_id,
            "service": d.service,
            "name": d.name,
            "repository": repository,
        }
        for d in documents
    ]
    conn.execute(statement, rows)


def search(
    conn: Connection, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None,
    snippets: bool = True,
) -> list[SearchHit]:
    expression = match_expression(terms)
    if expression is None or limit <= 0 or (kinds is not None and not kinds):
        return []
    only = sorted(set(kinds)) if kinds is not None else []
    params = (expression, *only, min(limit, MAX_LIMIT))
    found = phrases(terms)
    rows = conn.exec_driver_sql(_statement(len(only) if kinds is not None else None, snippets), params)
    return [
        SearchHit(
            kind=kind,
            service=service,
            name=name,
            score=-float(rank),  # bm25() is negative, lower is better
            field=best_field({"name_text": name_text, "keywords": keywords}, found),
            snippet=snippet or None,
            ref_id=ref_id,
        )
        for kind, ref_id, service, name, name_text, keywords, snippet, rank in rows
    ]


@functools.lru_cache(maxsize=64)
def _statement(kinds: int | None, snippets: bool = True) -> str:
    """The search's SQL, written once per number of kinds (None: any kind) and handed to the driver
    as it is: a search answers many times a request, and building and compiling the statement
    each time cost more than the rows it reads. Without ``snippets`` none is cut (FTS5 reads the
    matched columns again for each row: most of a query's time)."""
    weights = ", ".join(str(weight) for _, weight in WEIGHTS)
    snippet = f"snippet({TABLE}, -1, '', '', '…', 12)" if snippets else "NULL"
    only = f" AND kind IN ({', '.join('?' * kinds)})" if kinds is not None else ""
    return (
        # not the text column: best_field never reads it, and a service's vocabulary is large
        f"SELECT kind, ref_id, service, name, name_text, keywords, "
        f"{snippet} AS snippet, bm25({TABLE}, {weights}) AS rank "
        f"FROM {TABLE} WHERE {TABLE} MATCH ?{only} "
        "ORDER BY rank, kind, name, ref_id LIMIT ?"
    )
