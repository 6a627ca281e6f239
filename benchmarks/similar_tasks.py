"""Cost of similar_past_tasks against a full run log (keyword path: word overlap with every past
run; the run log keeps at most 500 runs, and every find_change_surface answer asks it).

    uv run python benchmarks/similar_tasks.py [--runs 500] [--calls 50] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import time

from orbitkb.domain.change import similar
from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun

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


if __name__ == "__main__":
    main()
