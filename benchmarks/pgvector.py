"""PostgreSQL nearest vectors with pgvector against the exact scan, at several numbers of vectors:
the cost of writing them (pgvector's column is filled by a trigger), of a reader's first query (the
exact scan reads every vector into a numpy matrix; pgvector reads nothing) and of a warm query.

    uv run python benchmarks/pgvector.py [--sizes 4108,20000] [--queries 20]

Starts a throwaway PostgreSQL 16 with pgvector (the ``pgserver`` dev dependency, as the tests do).
Two databases get the same random 384-dimension vectors (the packaged MiniLM's size): one with the
extension, one where the schema step found none (the exact scan). Every answer of the pgvector
store is checked against the exact scan's. Timings under load are only comparable within one run.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchlib.timing import median_ms  # noqa: E402

from orbitkb.domain.retrieval import SIMILARITY_FLOOR  # noqa: E402
from orbitkb.domain.runs import Embedding  # noqa: E402
from orbitkb.postgres import PostgresKnowledgeStore, pgvector  # noqa: E402

MODEL, DIM, LIMIT = "bench-model", 384, 60
FLOOR = SIMILARITY_FLOOR - 0.3




def _without_extension(url: str) -> PostgresKnowledgeStore:
    """A store whose schema step finds no pgvector (the exact scan), on the same server."""
    name = pgvector.EXTENSION
    pgvector.EXTENSION = "orbitkb_no_such_extension"
    try:
        return PostgresKnowledgeStore(url)
    finally:
        pgvector.EXTENSION = name


def measure(size: int, queries: int, new_database: Callable[[], str]) -> dict[str, float]:
    rnd = random.Random(size)
    kinds = ("service", "api", "message", "entity")
    vectors = [Embedding(kinds[i % 4], f"owner:{i // 2}", ("name", "text")[i % 2], f"h{i}", MODEL,
                         tuple(rnd.gauss(0, 1) for _ in range(DIM))) for i in range(size)]
    qs = [tuple(rnd.gauss(0, 1) for _ in range(DIM)) for _ in range(queries)]
    out: dict[str, float] = {"vectors": size}
    stores = {"exact": _without_extension(new_database()), "pgvector": PostgresKnowledgeStore(new_database())}
    assert stores["pgvector"].vector_search == "pgvector" and stores["exact"].vector_search == "exact scan"
    for name, store in stores.items():
        t0 = time.perf_counter()
        for start in range(0, size, 2000):  # as indexing writes them: in batches
            store.put_embeddings(vectors[start:start + 2000])
        out[f"{name}_write_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    for name, store in stores.items():
        t0 = time.perf_counter()
        store.nearest_embeddings(MODEL, qs[0], LIMIT, FLOOR)
        out[f"{name}_first_ms"] = round((time.perf_counter() - t0) * 1000, 1)
    for q in qs[:5]:
        assert stores["pgvector"].nearest_embeddings(MODEL, q, LIMIT, FLOOR) == \
            stores["exact"].nearest_embeddings(MODEL, q, LIMIT, FLOOR)
    for name, store in stores.items():
        asked = iter(qs * 2)
        out[f"{name}_warm_ms"] = round(median_ms(lambda s=store, a=asked: s.nearest_embeddings(MODEL, next(a), LIMIT,
                                                                                        FLOOR), queries), 2)
    for store in stores.values():
        store.close()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="4108,20000")
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args(argv)
    from tests.support import postgres

    cluster = postgres.start(postgres.pgvector_bin())
    try:
        print("| vectors | write: exact / pgvector, ms | first query: exact (loads matrix) / pgvector, ms "
              "| warm query: exact / pgvector, ms |")
        print("|---|---|---|---|")
        for size in (int(s) for s in args.sizes.split(",")):
            r = measure(size, args.queries, cluster.create_database)
            print(f"| {size:,} | {r['exact_write_ms']:.0f} / {r['pgvector_write_ms']:.0f} | "
                  f"{r['exact_first_ms']:.0f} / {r['pgvector_first_ms']:.0f} | "
                  f"{r['exact_warm_ms']:.1f} / {r['pgvector_warm_ms']:.1f} |")
    finally:
        cluster.stop()
    print(f"\nload average {os.getloadavg()[0]:.1f}; answers identical on every checked query")
    return 0


if __name__ == "__main__":
    sys.exit(main())
