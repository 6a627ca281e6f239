"""Vector search cost per query: the pure-Python cosine loop (how search ranked vectors before)
against the SQLite store's normalised numpy matrix, at several numbers of stored vectors.

    uv run python benchmarks/vector_search.py [--sizes 421,4108,20000] [--queries 20]

Vectors are random, 384 dimensions (the packaged MiniLM's), in a temporary database. "before"
is one request as HybridRetriever served it: list every vector of the model, then rank them in
Python; "after" is ``nearest_embeddings`` on a warm store (the matrix is built on the first
query, timed apart as "first query"). Both rankings are checked to be identical. Prints a table.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from benchlib.timing import median_ms

from orbitkb.domain.retrieval import SIMILARITY_FLOOR, rank_nearest
from orbitkb.domain.runs import Embedding
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
    store.close()
    return {"vectors": size, "before_ms": round(slow, 1), "first_query_ms": round(first, 1),
            "after_ms": round(fast, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="421,4108,20000")
    ap.add_argument("--queries", type=int, default=20)
    args = ap.parse_args(argv)
    print("| vectors | before: list + Python cosine, ms | after: first query (builds matrix), ms | after: warm, ms |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            r = measure(size, args.queries, Path(tmp))
            print(f"| {r['vectors']:,} | {r['before_ms']} | {r['first_query_ms']} | {r['after_ms']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
