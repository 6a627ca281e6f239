"""FTS5's bm25 from the positions a ``tsvector`` keeps: the ranking of queries holding a phrase
of several words (``order-created``), which the postings table cannot answer alone.

The matches are found through the GIN index; for each, the query's lexemes are expanded with
their positions and classes, and a phrase occurs where its tokens sit at consecutive positions
of one column (the last one a prefix). The corpus statistics come from ``search_stats``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

K1 = 1.2
B = 0.75


def _phrase_query(phrase: tuple[str, ...]) -> str:
    return " <-> ".join(phrase) + ":*"


def occurrences(found: Sequence[tuple[str, ...]], lexemes: dict[str, dict[int, str]],
                class_weight: dict[str, float]) -> list[float]:
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
                total += class_weight.get(cls, 0.0)
        freqs.append(total)
    return freqs


def rank(conn: Connection, table: str, found: Sequence[tuple[str, ...]], expression: str,
         corpus: tuple[float, float], kinds: Sequence[str] | None, class_weight: dict[str, float],
         ) -> list[tuple[float, str, str, str, int]]:
    """(-score, kind, name, ref_id, id) of every match, best first."""
    n_rows, avgdl = corpus
    counts = ", ".join(f"count(*) FILTER (WHERE doc @@ to_tsquery('simple', :q{i}))" for i in range(len(found)))
    per_phrase = conn.execute(
        sa.text(f"SELECT {counts} FROM {table} WHERE doc @@ to_tsquery('simple', :expression)"),
        {"expression": expression, **{f"q{i}": _phrase_query(p) for i, p in enumerate(found)}},
    ).one()
    idf = []
    for hits in per_phrase:
        value = math.log((n_rows - (hits or 0) + 0.5) / ((hits or 0) + 0.5))
        idf.append(value if value > 0 else 1e-6)
    statement = sa.text(
        f"SELECT d.id, d.kind, d.name, d.ref_id, d.ntok, u.lexeme, u.positions, u.weights "
        f"FROM {table} d, unnest(d.doc) u WHERE d.doc @@ to_tsquery('simple', :expression) "
        "AND (CAST(:kinds AS text[]) IS NULL OR d.kind = ANY(:kinds)) "
        "AND (u.lexeme = ANY(:exact) OR u.lexeme LIKE ANY(:prefixes))"
    )
    params = {"expression": expression, "kinds": list(kinds) if kinds is not None else None,
              "exact": sorted({t for p in found for t in p[:-1]}),
              "prefixes": sorted({p[-1] + "%" for p in found})}  # tokens hold no LIKE wildcard
    rows: dict[int, tuple[str, str, str, int]] = {}
    lexemes: dict[int, dict[str, dict[int, str]]] = defaultdict(dict)
    for row in conn.execute(statement, params):
        rows[row.id] = (row.kind, row.name, row.ref_id, row.ntok)
        lexemes[row.id][row.lexeme] = dict(zip(row.positions, row.weights))
    scored = []
    for doc_id, (kind, name, ref_id, ntok) in rows.items():
        norm = K1 * (1 - B + B * ntok / avgdl)
        score = sum(w * (f * (K1 + 1)) / (f + norm)
                    for w, f in zip(idf, occurrences(found, lexemes[doc_id], class_weight)) if f)
        scored.append((-score, kind, name, ref_id, doc_id))
    scored.sort()
    return scored
