"""Full-text search over SearchDocuments: FTS5 with bm25 ranking — the only SQLite-specific SQL.

User terms never reach FTS5 syntax: each term is cut into word tokens (letters and digits only),
the tokens are wrapped in double quotes as one phrase and given a prefix star, and the phrases are
OR-ed. ``' OR '1'='1``, ``NEAR(``, ``"``, ``*`` or ``-x`` therefore search for their words or for
nothing, and the expression itself is a bound parameter.

Each kind's documents hold the rowids of one band (``KIND_BANDS``: band << ``BAND_BITS`` | n), so a
query for some kinds reads only their bands — FTS5 seeks a rowid range — instead of every match's
kind column: a kind-filtered query costs what its own kind's matches cost. A kind not in the table
shares band 0 with the others like it (filtered by its kind column there). bm25 is unchanged: its
statistics are the whole table's, whatever the rowids.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import SearchHit
from orbitkb.sql.rows import RowSource
from orbitkb.sql.terms import MAX_LIMIT, UNINDEXED, WEIGHTS, best_field, phrases

TABLE = "search_docs"
BAND_BITS = 40
#: kind -> its rowid band (0: any other kind). A kind added here needs a migration that moves its
#: documents out of band 0, as migration 7 moved those of the first nine.
KIND_BANDS: dict[str, int] = {
    "service": 1, "component": 2, "api": 3, "call": 4, "message": 5, "technology": 6, "source": 7,
    "history": 8, "entity": 9,
}


def band_of(kind: str) -> int:
    return KIND_BANDS.get(kind, 0)


def band_range(band: int) -> tuple[int, int]:
    """The first and last rowid of ``band``."""
    return band << BAND_BITS, ((band + 1) << BAND_BITS) - 1


#: The kinds with documents: one row per non-empty band, every kind of band 0.
KINDS_PRESENT = sa.text(" UNION ALL ".join(
    [f"SELECT * FROM (SELECT kind FROM {TABLE} WHERE rowid BETWEEN {lo} AND {hi} LIMIT 1)"
     for lo, hi in (band_range(b) for b in sorted(set(KIND_BANDS.values())))]
    + [f"SELECT DISTINCT kind FROM {TABLE} WHERE rowid BETWEEN {band_range(0)[0]} AND {band_range(0)[1]}"]))


def kinds_present(rows: RowSource) -> frozenset[str]:
    """The kinds that have at least one document (read once per snapshot: see the shared store)."""
    return frozenset(str(kind) for kind, in rows.tuples(KINDS_PRESENT))


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
    names = ["rowid", *(name for name, _ in WEIGHTS), *UNINDEXED]
    statement = sa.text(
        f"INSERT INTO {TABLE} ({', '.join(names)}) VALUES ({', '.join(':' + n for n in names)})"
    )
    following = _next_rowids(conn, {band_of(d.kind) for d in documents})
    rows = [
        {
            "rowid": next(following[band_of(d.kind)]),
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


def _next_rowids(conn: Connection, bands: set[int]) -> dict[int, Iterator[int]]:
    """Per band, the rowids after the last one it holds."""
    out: dict[int, Iterator[int]] = {}
    for band in bands:
        lo, hi = band_range(band)
        # FTS5 answers this from the end of the range; max(rowid) would read every row of the band
        last = conn.execute(sa.text(f"SELECT rowid FROM {TABLE} WHERE rowid BETWEEN :lo AND :hi "
                                    "ORDER BY rowid DESC LIMIT 1"), {"lo": lo, "hi": hi}).scalar()
        out[band] = itertools.count(int(last) + 1 if last is not None else lo + 1)
    return out


def search(
    conn: Connection, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None,
    snippets: bool = True,
) -> list[SearchHit]:
    expression = match_expression(terms)
    if expression is None or limit <= 0 or (kinds is not None and not kinds):
        return []
    cap = min(limit, MAX_LIMIT)
    params: tuple[object, ...]
    if kinds is None:
        sql, params = _statement(None, snippets), (expression, cap)
    else:
        only = sorted(set(kinds))
        sql = _statement(len(only), snippets)
        params = tuple(x for kind in only for x in (expression, *band_range(band_of(kind)), kind, cap))
        params = (*params, cap) if len(only) > 1 else params
    found = phrases(terms)
    rows = conn.exec_driver_sql(sql, params)
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
    matched columns again for each row: most of a query's time). Each kind is one part over its
    rowid band (its best ``limit``); several kinds are those parts, ranked together."""
    weights = ", ".join(str(weight) for _, weight in WEIGHTS)
    snippet = f"snippet({TABLE}, -1, '', '', '…', 12)" if snippets else "NULL"
    order = "ORDER BY rank, kind, name, ref_id LIMIT ?"
    # not the text column: best_field never reads it, and a service's vocabulary is large
    select = (f"SELECT kind, ref_id, service, name, name_text, keywords, "
              f"{snippet} AS snippet, bm25({TABLE}, {weights}) AS rank FROM {TABLE} WHERE {TABLE} MATCH ?")
    if kinds is None:
        return f"{select} {order}"
    part = f"{select} AND rowid BETWEEN ? AND ? AND kind = ? {order}"
    if kinds == 1:
        return part
    return " UNION ALL ".join(f"SELECT * FROM ({part})" for _ in range(kinds)) + f" {order}"
