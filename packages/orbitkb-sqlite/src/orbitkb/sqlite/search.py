"""Full-text search over SearchDocuments: FTS5 with bm25 ranking — the only SQLite-specific SQL.

User terms never reach FTS5 syntax: each term is cut into word tokens (letters and digits only),
the tokens are wrapped in double quotes as one phrase and given a prefix star, and the phrases are
OR-ed. ``' OR '1'='1``, ``NEAR(``, ``"``, ``*`` or ``-x`` therefore search for their words or for
nothing, and the expression itself is a bound parameter.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import SearchHit

TABLE = "search_docs"
#: Indexed columns with their bm25 weights, highest first: a name match outweighs a keyword match
#: which outweighs a match in free text.
WEIGHTS: tuple[tuple[str, float], ...] = (("name_text", 10.0), ("keywords", 4.0), ("text", 1.0))
UNINDEXED = ("kind", "ref_id", "service_id", "service", "name", "repository")
MAX_TERMS = 32
MAX_TERM_CHARS = 100
MAX_LIMIT = 500
_TOKEN = re.compile(r"[^\W_]+")


def create_index(conn: Connection) -> None:
    """The FTS5 table (migration 1). A later layout change needs its own migration."""
    columns = [name for name, _ in WEIGHTS] + [f"{name} UNINDEXED" for name in UNINDEXED]
    conn.execute(
        sa.text(
            f"CREATE VIRTUAL TABLE {TABLE} USING fts5({', '.join(columns)}, "
            "tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')"
        )
    )


def tokens(text: str) -> list[str]:
    """Word tokens the way FTS5's unicode61 tokenizer sees them: case- and accent-folded."""
    if text.isascii():  # nothing to decompose or strip: the same tokens, without a pass per character
        return _TOKEN.findall(text.lower())
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _TOKEN.findall(folded)


def phrases(terms: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct non-empty token phrases of ``terms``, in order, capped."""
    seen: dict[tuple[str, ...], None] = {}
    for term in terms:
        phrase = tuple(tokens(str(term)[:MAX_TERM_CHARS]))
        if phrase:
            seen.setdefault(phrase, None)
    return list(seen)[:MAX_TERMS]


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


def best_field(values: dict[str, str], found: Sequence[tuple[str, ...]]) -> str:
    """The column that best explains a hit: most matched phrases times the column's weight. The
    lowest-weight column (free text, possibly a whole service's vocabulary) is tokenised only
    when no other column explains the hit: it is then the answer whatever it holds."""
    best, best_score = WEIGHTS[-1][0], 0.0
    for name, weight in WEIGHTS[:-1]:
        column = tokens(values.get(name) or "")
        score = weight * sum(1 for phrase in found if contains(column, phrase))
        if score > best_score:
            best, best_score = name, score
    return best


def contains(column: Sequence[str], phrase: tuple[str, ...]) -> bool:
    """True when ``phrase`` occurs in ``column``, its last token matched as a prefix."""
    n = len(phrase)
    for i in range(len(column) - n + 1):
        if column[i : i + n - 1] == list(phrase[:-1]) and column[i + n - 1].startswith(phrase[-1]):
            return True
    return False


def search(
    conn: Connection, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
) -> list[SearchHit]:
    expression = match_expression(terms)
    if expression is None or limit <= 0 or (kinds is not None and not kinds):
        return []
    weights = ", ".join(str(weight) for _, weight in WEIGHTS)
    where = f"{TABLE} MATCH :expression"
    params: dict[str, object] = {"expression": expression, "limit": min(limit, MAX_LIMIT)}
    statement = sa.text(
        # not the text column: best_field never reads it, and a service's vocabulary is large
        f"SELECT kind, ref_id, service, name, name_text, keywords, "
        f"snippet({TABLE}, -1, '', '', '…', 12) AS snippet, bm25({TABLE}, {weights}) AS rank "
        f"FROM {TABLE} WHERE {where}{' AND kind IN :kinds' if kinds is not None else ''} "
        "ORDER BY rank, kind, name, ref_id LIMIT :limit"
    )
    if kinds is not None:
        statement = statement.bindparams(sa.bindparam("kinds", expanding=True))
        params["kinds"] = sorted(set(kinds))
    found = phrases(terms)
    hits = []
    for row in conn.execute(statement, params).mappings():
        hits.append(
            SearchHit(
                kind=row["kind"],
                service=row["service"],
                name=row["name"],
                score=-float(row["rank"]),  # bm25() is negative, lower is better
                field=best_field(dict(row), found),
                snippet=row["snippet"] or None,
                ref_id=row["ref_id"],
            )
        )
    return hits
