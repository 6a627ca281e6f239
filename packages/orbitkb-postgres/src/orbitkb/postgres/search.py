"""Full-text search over SearchDocuments: a weighted ``tsvector`` found through a GIN index and
ranked by FTS5's own bm25 — the only PostgreSQL-specific queries of the store.

The three indexed fields are tsvector classes A, B and C. Both the documents and the query are
cut into the same tokens as the SQLite store's (letters and digits, case- and accent-folded) in
Python, so ``to_tsvector('simple', …)`` only splits on the spaces we put there; a query is one
phrase per term (``a <-> b:*``, the last token a prefix), OR-ed, bound as a parameter — user text
never reaches tsquery syntax.

Ranking is SQLite's, so both stores answer alike: ``ts_rank`` weighs differently, so the matches
are scored with FTS5's bm25 (k1 1.2, b 0.75, the column weights of ``orbitkb.sql.terms.WEIGHTS``
on each phrase occurrence, idf from how many documents match each phrase, document length the
row's token count ``ntok``), from the positions the tsvector keeps of the query's lexemes only.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import SearchHit
from orbitkb.sql.terms import MAX_LIMIT, UNINDEXED, WEIGHTS, best_field, phrases, tokens

TABLE = "search_docs"
CLASSES = ("A", "B", "C")
SNIPPET_OPTIONS = 'StartSel="",StopSel="",MaxWords=12,MinWords=4,ShortWord=1,HighlightAll=false'
#: At most this much of the free text is read for a snippet.
SNIPPET_CHARS = 4000


def create_index(conn: Connection) -> None:
    """The search table with its weighted vector and a GIN index (migration 1)."""
    columns = ", ".join(f'{name} TEXT COLLATE "C"' for name, _ in WEIGHTS)
    plain = ", ".join(f'{name} TEXT COLLATE "C"' for name in UNINDEXED)
    conn.execute(sa.text(f"CREATE TABLE {TABLE} (id BIGSERIAL PRIMARY KEY, {columns}, {plain}, "
                         "ntok INTEGER NOT NULL, doc TSVECTOR NOT NULL)"))
    conn.execute(sa.text(f"CREATE INDEX ix_{TABLE}_doc ON {TABLE} USING GIN (doc)"))
    conn.execute(sa.text(f"CREATE INDEX ix_{TABLE}_repository ON {TABLE} (repository)"))


def match_expression(terms: Sequence[str]) -> str | None:
    found = phrases(terms)
    if not found:
        return None
    return " | ".join("(" + " <-> ".join(phrase) + ":*)" for phrase in found)


def delete_repository(conn: Connection, repository: str) -> None:
    conn.execute(sa.text(f"DELETE FROM {TABLE} WHERE repository = :repository"), {"repository": repository})


def _vector_sql() -> str:
    return " || ".join(
        f"setweight(to_tsvector('simple', :{name}_tokens), '{cls}')" for (name, _), cls in zip(WEIGHTS, CLASSES)
    )


def insert(conn: Connection, repository: str, documents: Sequence[SearchDocument]) -> None:
    if not documents:
        return
    names = [name for name, _ in WEIGHTS] + list(UNINDEXED)
    statement = sa.text(
        f"INSERT INTO {TABLE} ({', '.join(names)}, ntok, doc) "
        f"VALUES ({', '.join(':' + n for n in names)}, :ntok, {_vector_sql()})"
    )
    rows = []
    for d in documents:
        row: dict[str, object] = {
            "name_text": d.name_text, "keywords": d.keywords, "text": d.text, "kind": d.kind,
            "ref_id": d.ref_id, "service_id": d.service_id, "service": d.service, "name": d.name,
            "repository": repository,
        }
        ntok = 0
        for name, _ in WEIGHTS:
            words = tokens(str(row[name] or ""))
            row[f"{name}_tokens"] = " ".join(words)
            ntok += len(words)
        row["ntok"] = ntok
        rows.append(row)
    conn.execute(statement, rows)


K1 = 1.2
B = 0.75
#: tsvector class -> the column weight of a phrase occurrence there
_CLASS_WEIGHT = {cls: weight for (_, weight), cls in zip(WEIGHTS, CLASSES)}


def _phrase_query(phrase: tuple[str, ...]) -> str:
    return " <-> ".join(phrase) + ":*"


def _where_kinds(kinds: Sequence[str] | None) -> str:
    return " AND kind IN :kinds" if kinds is not None else ""


def _bind(statement: sa.TextClause, kinds: Sequence[str] | None) -> sa.TextClause:
    return statement.bindparams(sa.bindparam("kinds", expanding=True)) if kinds is not None else statement


def _occurrences(found: Sequence[tuple[str, ...]], lexemes: dict[str, dict[int, str]]) -> list[float]:
    """Per phrase, the sum of the column weights of its occurrences in one row: its tokens at
    consecutive positions of one column, the last one a prefix."""
    freqs = []
    for phrase in found:
        total = 0.0
        last = [(pos, cls) for lexeme, positions in lexemes.items() if lexeme.startswith(phrase[-1])
                for pos, cls in positions.items()]
        for pos, cls in last:
            start = pos - (len(phrase) - 1)
            if all(lexemes.get(tok, {}).get(start + i) == cls for i, tok in enumerate(phrase[:-1])):
                total += _CLASS_WEIGHT.get(cls, 0.0)
        freqs.append(total)
    return freqs


def search(
    conn: Connection, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
) -> list[SearchHit]:
    expression = match_expression(terms)
    if expression is None or limit <= 0 or (kinds is not None and not kinds):
        return []
    found = phrases(terms)
    # the corpus statistics bm25 needs: all rows (kinds filter after ranking, as FTS5's does)
    n_rows, total = conn.execute(sa.text(f"SELECT count(*), COALESCE(sum(ntok), 0) FROM {TABLE}")).one()
    if not n_rows:
        return []
    avgdl = (total / n_rows) or 1.0
    # how many documents match each phrase, in one pass over the documents matching any
    counts = ", ".join(f"count(*) FILTER (WHERE doc @@ to_tsquery('simple', :q{i}))" for i in range(len(found)))
    per_phrase = conn.execute(
        sa.text(f"SELECT {counts} FROM {TABLE} WHERE doc @@ to_tsquery('simple', :expression)"),
        {"expression": expression, **{f"q{i}": _phrase_query(p) for i, p in enumerate(found)}},
    ).one()
    idf = []
    for hits in per_phrase:
        value = math.log((n_rows - (hits or 0) + 0.5) / ((hits or 0) + 0.5))
        idf.append(value if value > 0 else 1e-6)
    params: dict[str, object] = {"expression": expression,
                                 "exact": sorted({t for p in found for t in p[:-1]}),
                                 "prefixes": sorted({p[-1].replace("%", "") + "%" for p in found})}
    if kinds is not None:
        params["kinds"] = sorted(set(kinds))
    statement = _bind(sa.text(
        f"SELECT d.id, d.kind, d.name, d.ref_id, d.ntok, u.lexeme, u.positions, u.weights "
        f"FROM {TABLE} d, unnest(d.doc) u WHERE d.doc @@ to_tsquery('simple', :expression)"
        f"{_where_kinds(kinds)} AND (u.lexeme = ANY(:exact) OR u.lexeme LIKE ANY(:prefixes))"
    ), kinds)
    rows: dict[int, tuple[str, str, str, int]] = {}
    lexemes: dict[int, dict[str, dict[int, str]]] = defaultdict(dict)
    for row in conn.execute(statement, params):
        rows[row.id] = (row.kind, row.name, row.ref_id, row.ntok)
        lexemes[row.id][row.lexeme] = dict(zip(row.positions, row.weights))
    scored = []
    for doc_id, (kind, name, ref_id, ntok) in rows.items():
        norm = K1 * (1 - B + B * ntok / avgdl)
        score = sum(w * (f * (K1 + 1)) / (f + norm)
                    for w, f in zip(idf, _occurrences(found, lexemes[doc_id])) if f)
        scored.append((-score, kind, name, ref_id, doc_id))
    scored.sort()
    best = scored[: min(limit, MAX_LIMIT)]
    if not best:
        return []
    details = sa.text(
        f"SELECT id, kind, ref_id, service, name, name_text, keywords, ts_headline('simple', "
        f"concat_ws(' … ', name_text, keywords, left(text, {SNIPPET_CHARS})), to_tsquery('simple', :expression), "
        f":options) AS snippet FROM {TABLE} WHERE id IN :ids"
    ).bindparams(sa.bindparam("ids", expanding=True))
    by_id = {r["id"]: r for r in conn.execute(details, {"expression": expression, "options": SNIPPET_OPTIONS,
                                                        "ids": [b[-1] for b in best]}).mappings()}
    return [
        SearchHit(
            kind=by_id[doc_id]["kind"], service=by_id[doc_id]["service"], name=by_id[doc_id]["name"],
            score=-neg, field=best_field(dict(by_id[doc_id]), found), snippet=by_id[doc_id]["snippet"] or None,
            ref_id=by_id[doc_id]["ref_id"],
        )
        for neg, _kind, _name, _ref, doc_id in best
    ]
