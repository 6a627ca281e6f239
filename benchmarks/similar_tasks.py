"""Cost of similar_past_tasks against a full run log (keyword path: word overlap with every past
run; the run log keeps at most 500 runs, and every find_change_surface answer asks it), and of
reading that history from a real SQLite store (``RunLog.change_history``: what a long-lived server
pays per answer) — read again with nothing recorded, and after each newly recorded run — and,
with an embedder, the task compared with every past task's vector: cosines computed here, one at
a time, against ``EmbeddingStore.similarities`` (one matrix product in the store).

    uv run python benchmarks/similar_tasks.py [--runs 500] [--calls 50] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from orbitkb.domain.change import similar
from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun, SurfaceFinding

VOCABULARY = ("add remove fix order payment checkout cart stock catalog user login refund invoice email "
              "shipping retry timeout cache metric log trace kafka queue topic price discount coupon").split()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=500)
    ap.add_argument("--calls", type=int, default=50)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(1)

    def text(n: int) -> str:
        return " ".join(rng.choice(VOCABULARY) for _ in range(n))

    runs = tuple(ChangeSurfaceRun(i, text(rng.randint(6, 30)), "t") for i in range(args.runs, 0, -1))
    history = ChangeHistory(runs=runs)
    tasks = [text(8) for _ in range(args.calls)]
    print(f"{args.runs} past runs, {args.calls} tasks, keyword path (no embedder)")
    for rep in range(args.repeats):
        start = time.perf_counter()
        for task in tasks:
            similar.similar_past_tasks(history, task, None)
        print(f"  pass {rep + 1}: {(time.perf_counter() - start) / len(tasks) * 1000:.2f} ms per call")
    store_reads(runs, args.calls, args.repeats)
    vector_path(runs, args.calls, args.repeats)


def vector_path(runs: tuple[ChangeSurfaceRun, ...], calls: int, repeats: int, dim: int = 384) -> None:
    """The embedder's path at the cap: 384-dimension task vectors (the packaged MiniLM's), in SQLite."""
    from orbitkb.domain.runs import Embedding
    from orbitkb.sqlite import SqliteKnowledgeStore

    rng = random.Random(2)
    model = "bench/minilm-like"

    def vector() -> tuple[float, ...]:
        return tuple(rng.gauss(0.0, 1.0) for _ in range(dim))

    with tempfile.TemporaryDirectory() as folder:
        store = SqliteKnowledgeStore(str(Path(folder) / "kb.db"))
        for run in reversed(runs):
            run_id = store.add_change_surface_run(ChangeSurfaceRun(None, run.task, "2025-01-01T00:00:00Z"))
            store.put_embeddings([Embedding("run", f"run:{run_id}", "task", f"h{run_id}", model, vector())])
        history = store.change_history(model_id=model)
        queries = [vector() for _ in range(calls)]
        embedder = _Named(model)
        same = all(similar.similar_past_tasks(history, "t", embedder, q)
                   == similar.similar_past_tasks(history, "t", embedder, q, _bound(store, model)) for q in queries[:5])
        print(f"task vectors of {len(history.task_vectors)} past runs, {dim} dimensions, SQLite "
              f"(CPU ms per call; the same answers both ways: {same})")
        for rep in range(repeats):
            timed = []
            for how in (None, _bound(store, model)):
                start = time.process_time()
                for q in queries:
                    similar.similar_past_tasks(history, "t", embedder, q, how)
                timed.append((time.process_time() - start) / calls * 1000)
            print(f"  pass {rep + 1}: {timed[0]:.2f} ms cosines here, {timed[1]:.2f} ms through the store")
        store.close()


class _Named:
    """An embedder that is never asked to embed: the query vectors are given."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self.dim = 384

    def embed(self, texts: object) -> list[tuple[float, ...]]:
        raise AssertionError("the benchmark gives the task's vector")


def _bound(store: object, model: str) -> similar.Similarities:
    return lambda q, owners: store.similarities(model, q, "run", owners)  # type: ignore[attr-defined]


def store_reads(runs: tuple[ChangeSurfaceRun, ...], calls: int, repeats: int) -> None:
    """change_history() from SQLite at the cap: each run with five findings and their evidence."""
    from orbitkb.domain.model import Evidence
    from orbitkb.sqlite import SqliteKnowledgeStore

    evidence = tuple(Evidence(f"services/s{i}/src/handler.py", 10 * i, 10 * i + 4, "0" * 40) for i in range(4))
    findings = tuple(SurfaceFinding(f"service-{i}", "primary" if i < 2 else "secondary",
                                    "named by the task and called by the checkout flow", 0.7, evidence)
                     for i in range(5))
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteKnowledgeStore(str(Path(folder) / "kb.db"))
        for run in reversed(runs):
            store.add_change_surface_run(ChangeSurfaceRun(None, run.task, "2025-01-01T00:00:00Z", findings=findings))
        store.change_history()
        print(f"change_history() from SQLite, {len(runs)} runs with {len(findings)} findings each "
              "(CPU time of this process: a loaded machine does not inflate it)")
        for rep in range(repeats):
            start = time.process_time()
            for _ in range(calls):
                store.change_history()
            again = (time.process_time() - start) / calls
            spent = 0.0
            for i in range(calls):
                store.add_change_surface_run(ChangeSurfaceRun(None, f"recorded task {rep} {i}", "2025-01-02T00:00:00Z",
                                                              findings=findings))
                start = time.process_time()
                store.change_history()
                spent += time.process_time() - start
            print(f"  pass {rep + 1}: {again * 1000:.2f} ms read again, {spent / calls * 1000:.2f} ms after a new run")
        store.close()


if __name__ == "__main__":
    main()
