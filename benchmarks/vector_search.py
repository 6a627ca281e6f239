"""Vector search cost per query: the pure-Python cosine loop (how search ranked vectors before)
against the SQLite store's normalised numpy matrix, at several numbers of stored vectors.

    uv run python benchmarks/vector_search.py [--sizes 421,4108,20000] [--queries 20]

Vectors are random, 384 dimensions (the packaged MiniLM's), in a temporary database. "before"
is one request as HybridRetriever served it: list every vector of the model, then rank them in
Python; "after" is ``nearest_embeddings`` on a warm store (the matrix is built on the first
query, timed apart as "first query"). Both rankings are checked to be identical. The warm query's
CPU time is also measured with the product on one BLAS thread (orbitkb.sql.blas, what the store
does) and on BLAS's own threads, alternating query by query in one run, with identical answers:
CPU time, unlike wall time, is not inflated by the load of a shared machine. Prints a table.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
import tempfile
import time
from pathlib import Path

from benchlib.timing import median_ms

from orbitkb.domain.retrieval import SIMILARITY_FLOOR, rank_nearest
from orbitkb.domain.runs import Embedding
from orbitkb.sql import vectors
from orbitkb.sqlite import SqliteKnowledgeStore

MODEL, DIM = "bench-model", 384




def measure(size: int, queries: int, folder: Path) -> dict[str, float]:
    rnd = random.Random(size)
    store = SqliteKnowledgeStore(str(folder / f"vectors-{size}.db"))
    kinds = ("service", "api", "message", "entity")
    store.put_embeddings([Embedding(kinds[i % 4], f"owner:{i // 2}", ("name", "text")[i % 2], f"h{i}", MODEL,
                                    tuple(rnd.gauss(0, 1) for _ in range(DIM))) for i in range(size)])
    qs = [tuple(rnd.gauss(0, 1) for _ in range(DIM)) for _ in range(queries)]
    it = iter(qs * 3)

    def before() -> list:
        return rank_nearest(store.list_embeddings(MODEL), next(it), 60, SIMILARITY_FLOOR - 0.3)

    t0 = time.perf_counter()
    store.nearest_embeddings(MODEL, qs[0], 60, SIMILARITY_FLOOR - 0.3)
    first = (time.perf_counter() - t0) * 1000
    for q in qs[:3]:  # the two paths agree
        reference = rank_nearest(store.list_embeddings(MODEL), q, 60, SIMILARITY_FLOOR - 0.3)
        assert store.nearest_embeddings(MODEL, q, 60, SIMILARITY_FLOOR - 0.3) == reference
    slow = median_ms(before, min(queries, 5))
    it = iter(qs * 3)
    fast = median_ms(lambda: store.nearest_embeddings(MODEL, next(it), 60, SIMILARITY_FLOOR - 0.3), queries)
    cpu = blas_threads_cpu(store, qs)
    store.close()
    return {"vectors": size, "before_ms": round(slow, 1), "first_query_ms": round(first, 1),
            "after_ms": round(fast, 2), **cpu}


def blas_threads_cpu(store: SqliteKnowledgeStore, queries: list[tuple[float, ...]]) -> dict[str, float]:
    """CPU ms a warm query, its product on one BLAS thread (the store's way) and on BLAS's own
    threads, alternating; the answers must be the same."""
    one = vectors.one_thread
    spent = {"one_thread_cpu_ms": 0.0, "blas_threads_cpu_ms": 0.0}
    try:
        for q in queries * 3:
            answers = []
            for key, limit in (("one_thread_cpu_ms", one), ("blas_threads_cpu_ms", contextlib.nullcontext)):
                vectors.one_thread = limit
                c0 = time.process_time()
                answers.append(store.nearest_embeddings(MODEL, q, 60, SIMILARITY_FLOOR - 0.3))
                spent[key] += time.process_time() - c0
            assert answers[0] == answers[1]
    finally:
        vectors.one_thread = one
    return {k: round(v * 1000 / (3 * len(queries)), 2) for k, v in spent.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="421,4108,20000")
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args(argv)
    print("| vectors | before: list + Python cosine, ms | after: first query (builds matrix), ms | after: warm, ms "
          "| warm CPU ms, one BLAS thread / BLAS's own threads |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            r = measure(size, args.queries, Path(tmp))
            print(f"| {r['vectors']:,} | {r['before_ms']} | {r['first_query_ms']} | {r['after_ms']} "
                  f"| {r['one_thread_cpu_ms']} / {r['blas_threads_cpu_ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
