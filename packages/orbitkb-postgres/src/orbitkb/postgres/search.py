"""Full-text search over SearchDocuments: a weighted ``tsvector``, a postings table and FTS5's own
bm25 ranked in SQL — the only PostgreSQL-specific queries of the store.

The three indexed fields are tsvector classes A, B and C. Both the documents and the query are
cut into the same tokens as the SQLite store's (letters and digits, case- and accent-folded) in
Python, so ``to_tsvector('simple', …)`` only splits on the spaces we put there; a query is one
phrase per term (``a <-> b:*``, the last token a prefix), OR-ed, bound as a parameter — user text
never reaches tsquery syntax.

Ranking is SQLite's, so both stores answer alike: matches are scored with FTS5's bm25 (k1 1.2,
b 0.75, the column weights of ``orbitkb.sql.terms.WEIGHTS`` on each occurrence, idf from how many
documents match each phrase, document length the row's token count ``ntok``). A query of single
words (nearly all of them) is ranked in one statement over ``search_postings`` — per document and
lexeme, its occurrences weighted by column, read through a btree range per prefix — with the
corpus size from ``search_stats`` (one row per repository, so concurrent indexers of different
repositories never wait on each other); only the ``limit`` best rows are read back, snippets
included. A phrase of several words needs positions: ``positions`` ranks it from the tsvector.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import SearchHit
from orbitkb.postgres import positions
from orbitkb.sql.rows import RowSource
from orbitkb.sql.terms import MAX_LIMIT, UNINDEXED, WEIGHTS, best_field, phrases, tokens

TABLE = "search_docs"
POSTINGS = "search_postings"
STATS = "search_stats"
CLASSES = ("A", "B", "C")
#: tsvector class -> the column weight of an occurrence there
CLASS_WEIGHT = {cls: weight for (_, weight), cls in zip(WEIGHTS, CLASSES)}
SNIPPET_OPTIONS = 'StartSel="",StopSel="",MaxWords=12,MinWords=4,ShortWord=1,HighlightAll=false'
#: The free text a snippet is cut from: this many characters, from a little before the first
#: occurrence of a query word (a service's source vocabulary is long; headlining it whole is slow).
SNIPPET_CHARS = 400
SNIPPET_LEAD = 100
#: Above every letter or digit: ``prefix || TOP`` bounds the lexemes starting with ``prefix``.
TOP = "\U0010ffff"


def create_index(conn: Connection) -> None:
    """The search table with its weighted vector and a GIN index (migration 1)."""
    columns = ", ".join(f'{name} TEXT COLLATE "C"' for name, _ in WEIGHTS)
    plain = ", ".join(f'{name} TEXT COLLATE "C"' for name in UNINDEXED)
    conn.execute(sa.text(f"CREATE TABLE {TABLE} (id BIGSERIAL PRIMARY KEY, {columns}, {plain}, "
                         "ntok INTEGER NOT NULL, doc TSVECTOR NOT NULL)"))
    conn.execute(sa.text(f"CREATE INDEX ix_{TABLE}_doc ON {TABLE} USING GIN (doc)"))
    conn.execute(sa.text(f"CREATE INDEX ix_{TABLE}_repository ON {TABLE} (repository)"))


def _weighted_occurrences(weights: str) -> str:
    """A lexeme's occurrences, each counted with the weight of its column (its class)."""
    return " + ".join(f"{weight} * cardinality(array_positions({weights}, '{cls}'))"
                      for cls, weight in CLASS_WEIGHT.items())


#: The postings of documents from their vectors (an insert, and migration 3's backfill); each
#: carries its document's kind and length, so ranking reads the documents of the best rows only.
_POSTINGS_OF = (f"INSERT INTO {POSTINGS} (doc_id, lexeme, tf, kind, ntok) SELECT d.id, u.lexeme, "
                f"{_weighted_occurrences('u.weights')}, d.kind, d.ntok FROM {TABLE} d, unnest(d.doc) u")


def create_postings(conn: Connection) -> None:
    """Postings and per-repository corpus statistics, filled from the documents (migration 3)."""
    conn.execute(sa.text(f'CREATE TABLE {POSTINGS} (doc_id BIGINT NOT NULL, lexeme TEXT COLLATE "C" NOT NULL, '
                         "tf DOUBLE PRECISION NOT NULL, kind TEXT COLLATE \"C\", ntok INTEGER NOT NULL, "
                         "PRIMARY KEY (doc_id, lexeme))"))
    conn.execute(sa.text(f"CREATE INDEX ix_{POSTINGS}_lexeme ON {POSTINGS} (lexeme) INCLUDE (doc_id, tf, kind, ntok)"))
    conn.execute(sa.text(f'CREATE TABLE {STATS} (repository TEXT COLLATE "C" PRIMARY KEY, '
                         "docs BIGINT NOT NULL, tokens BIGINT NOT NULL)"))
    conn.execute(sa.text(_POSTINGS_OF))
    conn.execute(sa.text(f"INSERT INTO {STATS} SELECT COALESCE(repository, ''), count(*), sum(ntok) "
                         f"FROM {TABLE} GROUP BY 1"))


_KINDS_PRESENT = sa.text(f"SELECT DISTINCT kind FROM {TABLE}")


def kinds_present(rows: RowSource) -> frozenset[str]:
    """The kinds that have at least one document (read once per snapshot: see the shared store)."""
    return frozenset(str(kind) for kind, in rows.tuples(_KINDS_PRESENT))


def match_expression(terms: Sequence[str]) -> str | None:
    found = phrases(terms)
    if not found:
        return None
    return " | ".join("(" + " <-> ".join(phrase) + ":*)" for phrase in found)


def delete_repository(conn: Connection, repository: str) -> None:
    params = {"repository": repository}
    conn.execute(sa.text(f"DELETE FROM {POSTINGS} p USING {TABLE} d "
                         "WHERE p.doc_id = d.id AND d.repository = :repository"), params)
    conn.execute(sa.text(f"DELETE FROM {STATS} WHERE repository = :repository"), params)
    conn.execute(sa.text(f"DELETE FROM {TABLE} WHERE repository = :repository"), params)


def _vector_sql() -> str:
    return " || ".join(
        f"setweight(to_tsvector('simple', :{name}_tokens), '{cls}')" for (name, _), cls in zip(WEIGHTS, CLASSES)
    )


def insert(conn: Connection, repository: str, documents: Sequence[SearchDocument]) -> None:
    if not documents:
        return
    ids = list(conn.execute(sa.text(f"SELECT nextval(pg_get_serial_sequence('{TABLE}', 'id')) "
                                    "FROM generate_series(1, :n)"), {"n": len(documents)}).scalars())
    names = [name for name, _ in WEIGHTS] + list(UNINDEXED)
    statement = sa.text(
        f"INSERT INTO {TABLE} (id, {', '.join(names)}, ntok, doc) "
        f"VALUES (:id, {', '.join(':' + n for n in names)}, :ntok, {_vector_sql()})"
    )
    rows = []
    for doc_id, d in zip(ids, documents):
        row: dict[str, object] = {
            "id": doc_id, "name_text": d.name_text, "keywords": d.keywords, "text": d.text, "kind": d.kind,
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
    conn.execute(sa.text(_POSTINGS_OF + " WHERE d.id = ANY(:ids)"), {"ids": ids})
    conn.execute(sa.text(
        f"INSERT INTO {STATS} (repository, docs, tokens) SELECT :repository, count(*), COALESCE(sum(ntok), 0) "
        f"FROM {TABLE} WHERE repository = :repository ON CONFLICT (repository) DO UPDATE "
        "SET docs = EXCLUDED.docs, tokens = EXCLUDED.tokens"), {"repository": repository})


def _details(prefix: str = "d.") -> str:
    first = (f"COALESCE((SELECT min(NULLIF(strpos(lower({prefix}text), w), 0)) FROM unnest(CAST(:starts AS text[])) w), "
             "1)")
    window = f"substr({prefix}text, greatest(1, {first} - {SNIPPET_LEAD}), {SNIPPET_CHARS})"
    return (f"{prefix}service, {prefix}name_text, {prefix}keywords, ts_headline('simple', concat_ws(' … ', "
            f"{prefix}name_text, {prefix}keywords, {window}), to_tsquery('simple', :expression), :options) AS snippet")


_CORPUS = (f"SELECT sum(docs)::float8 AS n, COALESCE(sum(tokens)::float8 / NULLIF(sum(docs), 0), 0) AS avgdl "
           f"FROM {STATS}")

#: bm25 of single-word phrases, in one statement: the postings of each prefix (a btree range),
#: idf from their document counts, scores from the postings alone; only the documents scoring at
#: least the ``:limit``-th best (ties kept) are read, ordered as FTS5's are, with their details.
_RANKED = f"""
WITH q AS (SELECT t.prefix, t.i FROM unnest(CAST(:prefixes AS text[])) WITH ORDINALITY AS t(prefix, i)),
tf AS (SELECT q.i, p.doc_id, p.kind, p.ntok, sum(p.tf) AS tf FROM q JOIN {POSTINGS} p
       ON p.lexeme >= q.prefix AND p.lexeme < q.prefix || :top GROUP BY q.i, p.doc_id, p.kind, p.ntok),
df AS (SELECT i, count(*)::float8 AS n FROM tf GROUP BY i),
corpus AS ({_CORPUS}),
ranked AS (
  SELECT tf.doc_id AS id, sum(CASE WHEN ln((c.n - df.n + 0.5) / (df.n + 0.5)) > 0 THEN ln((c.n - df.n + 0.5) / (df.n + 0.5))
                   ELSE 1e-6 END
               * tf.tf * {positions.K1 + 1} / (tf.tf + {positions.K1} * (1 - {positions.B} + {positions.B} * tf.ntok
                 / (CASE WHEN c.avgdl > 0 THEN c.avgdl ELSE 1 END)))) AS score
  FROM tf JOIN df USING (i) CROSS JOIN corpus c
  WHERE CAST(:kinds AS text[]) IS NULL OR tf.kind = ANY(:kinds)
  GROUP BY tf.doc_id),
cut AS (SELECT score FROM ranked ORDER BY score DESC OFFSET :limit - 1 LIMIT 1),
best AS (SELECT r.id, r.score FROM ranked r JOIN {TABLE} d ON d.id = r.id
         WHERE r.score >= COALESCE((SELECT score FROM cut), '-Infinity')
         ORDER BY r.score DESC, d.kind, d.name, d.ref_id, d.id LIMIT :limit)
SELECT d.id, d.kind, d.ref_id, d.name, r.score, {_details()}
FROM best r JOIN {TABLE} d ON d.id = r.id ORDER BY r.score DESC, d.kind, d.name, d.ref_id, d.id
"""


def search(
    conn: Connection, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None,
    snippets: bool = True,
) -> list[SearchHit]:
    expression = match_expression(terms)
    if expression is None or limit <= 0 or (kinds is not None and not kinds):
        return []
    found = phrases(terms)
    params: dict[str, Any] = {"expression": expression, "options": SNIPPET_OPTIONS, "limit": min(limit, MAX_LIMIT),
                              "kinds": sorted(set(kinds)) if kinds is not None else None,
                              "starts": sorted({phrase[0] for phrase in found})}
    if all(len(phrase) == 1 for phrase in found):
        rows = cast("Sequence[Mapping[str, Any]]", conn.execute(
            sa.text(_RANKED), {**params, "prefixes": [p[0] for p in found], "top": TOP}).mappings().all())
    else:
        rows = _ranked_from_positions(conn, found, params)
    return [
        SearchHit(kind=row["kind"], service=row["service"], name=row["name"], score=float(row["score"]),
                  field=best_field(dict(row), found), snippet=(row["snippet"] or None) if snippets else None,
                  ref_id=row["ref_id"])
        for row in rows
    ]


def _ranked_from_positions(conn: Connection, found: Sequence[tuple[str, ...]],
                           params: dict[str, Any]) -> list[Mapping[str, Any]]:
    n_rows, avgdl = conn.execute(sa.text(_CORPUS)).one()
    if not n_rows:
        return []
    scored = positions.rank(conn, TABLE, found, params["expression"], (n_rows, avgdl or 1.0), params["kinds"],
                            CLASS_WEIGHT)
    best = scored[: params["limit"]]
    if not best:
        return []
    details = sa.text(f"SELECT id, kind, ref_id, name, {_details('')} FROM {TABLE} WHERE id = ANY(:ids)")
    by_id = {r["id"]: r for r in conn.execute(details, {**params, "ids": [b[-1] for b in best]}).mappings()}
    return [{**by_id[doc_id], "score": -neg} for neg, _kind, _name, _ref, doc_id in best]
