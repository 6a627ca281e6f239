"""Nearest vectors with pgvector, when the server has the extension: the server picks the
candidates, the domain's ranking orders them.

Migration 4 tries ``CREATE EXTENSION vector`` in a savepoint. Without it (not installed, or a role
that may not create it) nothing changes and ``nearest`` stays the shared exact scan
(``orbitkb.sql.vectors``: every vector read into one numpy matrix per process). With it, the
embeddings table gains an ``embedding vector`` column, written with the float32 bytes by this
store's ``put``; a row written without it (``orbitkb copy``, a restore, the rows already there)
is filled by a trigger that decodes the bytes, so the two never disagree. A damaged row (bytes
that are not ``dim`` floats, or a NaN/infinity) gets NULL and is skipped, as the exact scan skips it.

A query then sends the server one statement: cosine distance (``<=>``) of every vector of the
model and dimension, each owner's best, and back only the rows that can reach the ``limit``-th
owner or the floor. pgvector sums in float32, the exact ranking in float64 to 12 digits, so the
candidates are taken with a margin (``MARGIN``) and ranked by ``retrieval.rank_nearest`` itself:
the answer is the exact scan's, without shipping every vector to every reader. No approximate
index (HNSW/IVFFlat) is built: its recall is below 1 and the port promises the exact ranking.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.types import UserDefinedType

from orbitkb.domain.retrieval import rank_nearest
from orbitkb.domain.runs import Embedding, VectorHit
from orbitkb.sql import codec
from orbitkb.sql import embeddings as embeddings_sql
from orbitkb.sql.tables import embeddings as shared_embeddings
from orbitkb.sql.vectors import HISTORY_KIND

EXTENSION = "vector"
COLUMN = "embedding"
#: How far pgvector's float32 cosine may stray from the float64 one, with room to spare.
MARGIN = 1e-3

# float32 little-endian words -> a vector: sign, exponent and mantissa of each word in float8
# (exact for every finite float32, subnormals included); NULL for a wrong length or a NaN/infinity.
_DECODE = f"""
CREATE OR REPLACE FUNCTION orbitkb_float4_vector(packed bytea, dim integer) RETURNS {EXTENSION}
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN dim < 1 OR length(packed) <> 4 * dim OR bool_or(e = 255) THEN NULL
         ELSE array_agg(CASE WHEN e = 0 THEN m * power(2::float8, -149)
                             ELSE (8388608 + m) * power(2::float8, e - 150) END
                        * (1 - 2 * s) ORDER BY i)::real[]::{EXTENSION} END
  FROM (SELECT i, (w >> 31) & 1 AS s, (w >> 23) & 255 AS e, w & 8388607 AS m
        FROM (SELECT i, (get_byte(packed, 4 * i)::bigint
                         | (get_byte(packed, 4 * i + 1)::bigint << 8)
                         | (get_byte(packed, 4 * i + 2)::bigint << 16)
                         | (get_byte(packed, 4 * i + 3)::bigint << 24)) AS w
              FROM generate_series(0, length(packed) / 4 - 1) AS i) AS words) AS parts
$$
"""
# the store's own writes bring the column (``put``); a row written without it is decoded here
_FILL = f"""
CREATE OR REPLACE FUNCTION orbitkb_embeddings_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' OR NEW.{COLUMN} IS NULL THEN
    NEW.{COLUMN} := orbitkb_float4_vector(NEW.vector, NEW.dim);
  END IF;
  RETURN NEW;
END $$
"""
_TRIGGER = ("CREATE TRIGGER embeddings_fill BEFORE INSERT OR UPDATE OF vector, dim ON embeddings "
            "FOR EACH ROW EXECUTE FUNCTION orbitkb_embeddings_fill()")

# Each owner's best similarity; the rows that can reach the limit-th owner (or the floor) come back.
_NEAREST = f"""
WITH scored AS (
  SELECT owner_kind, owner_id, field,
         COALESCE(NULLIF(1 - ({COLUMN} <=> CAST(:query AS {EXTENSION})), 'NaN'), 0) AS sim
  FROM embeddings
  WHERE model_id = :model AND dim = :dim AND owner_kind <> :history AND {COLUMN} IS NOT NULL
    AND (CAST(:kinds AS text[]) IS NULL OR owner_kind = ANY(CAST(:kinds AS text[])))
), cut AS (
  SELECT best FROM (SELECT max(sim) AS best FROM scored GROUP BY owner_id) AS owners
  WHERE best >= :floor - :margin ORDER BY best DESC OFFSET :last LIMIT 1
)
SELECT e.owner_kind, e.owner_id, e.field, e.content_hash, e.vector FROM scored AS s
JOIN embeddings AS e ON e.model_id = :model AND e.owner_kind = s.owner_kind AND e.owner_id = s.owner_id
                        AND e.field = s.field
WHERE s.sim >= :floor - :margin AND s.sim >= COALESCE((SELECT best FROM cut), -2) - :margin
ORDER BY e.owner_kind COLLATE "C", e.owner_id COLLATE "C", e.field COLLATE "C"
"""


def create(conn: Connection) -> None:
    """Migration step: the vector column, its trigger and its rows — only where the extension can
    be created; otherwise nothing (the step still counts as done: the exact scan serves)."""
    try:
        with conn.begin_nested():
            conn.execute(sa.text(f"CREATE EXTENSION IF NOT EXISTS {EXTENSION}"))
    except sa.exc.DBAPIError:
        return
    conn.execute(sa.text(f"ALTER TABLE embeddings ADD COLUMN {COLUMN} {EXTENSION}"))
    # a scan reads the vectors in the row itself, the float32 bytes (read to rank) out of line
    conn.execute(sa.text(f"ALTER TABLE embeddings ALTER COLUMN {COLUMN} SET STORAGE MAIN, "
                         "ALTER COLUMN vector SET STORAGE EXTERNAL"))
    conn.execute(sa.text(_DECODE))
    conn.execute(sa.text(_FILL))
    conn.execute(sa.text(_TRIGGER))
    conn.execute(sa.text("UPDATE embeddings SET vector = vector"))  # rows written before this step


class Vector(UserDefinedType[Sequence[float]]):
    """pgvector's ``vector`` bound from floats; NULL for a NaN or an infinity (the type refuses
    them: the trigger then leaves the row without a vector, as the exact scan skips it)."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return EXTENSION

    def bind_processor(self, dialect: sa.Dialect) -> Callable[[Sequence[float] | None], str | None]:
        def text(value: Sequence[float] | None) -> str | None:
            if value is None or not all(math.isfinite(x) for x in value):
                return None
            return "[" + ",".join(repr(float(x)) for x in value) + "]"

        return text


#: The embeddings table as this store writes it: the shared columns and the vector column.
TABLE = sa.Table("embeddings", sa.MetaData(),
                 *(sa.Column(c.name, c.type, primary_key=c.primary_key, nullable=c.nullable)
                   for c in shared_embeddings.columns),
                 sa.Column(COLUMN, Vector()))


def put(conn: Connection, embeddings: Sequence[Embedding]) -> None:
    """The shared write, with each vector in the pgvector column too (no decoding by the trigger)."""
    embeddings_sql.put(conn, embeddings, TABLE, lambda e: {COLUMN: e.vector})


def present(conn: Connection) -> bool:
    """True when this database's embeddings have the pgvector column (migration 4 found the
    extension)."""
    statement = sa.text("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                        "AND table_name = 'embeddings' AND column_name = :column")
    return conn.execute(statement, {"column": COLUMN}).first() is not None


def nearest(conn: Connection, model_id: str, vector: Sequence[float], limit: int, floor: float,
            kinds: Sequence[str] | None) -> list[VectorHit]:
    """The ``limit`` owners nearest ``vector``, as ``rank_nearest`` ranks them."""
    if limit <= 0 or not vector:
        return []
    rows = conn.execute(sa.text(_NEAREST), {
        "query": "[" + ",".join(repr(float(x)) for x in vector) + "]", "model": model_id, "dim": len(vector),
        "history": HISTORY_KIND, "kinds": list(kinds) if kinds else None, "floor": floor,
        "margin": MARGIN, "last": limit - 1,
    })
    candidates = [Embedding(r.owner_kind, r.owner_id, r.field, r.content_hash, model_id,
                            codec.unpack_vector(r.vector)) for r in rows]
    return rank_nearest(candidates, vector, limit, floor, kinds)
