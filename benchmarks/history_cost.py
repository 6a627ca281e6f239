"""Cost of the history vocabulary at index time: per clone, the wall time of reading the last
commits (``GitReader.history``, the hardened ``git log --name-only``) and of turning them into
per-service bags (``change_history.history_words``, services faked as the clone's top folders).

    uv run python benchmarks/history_cost.py --clones /work/clones [--limit 1000] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from orbitkb.domain.change_history import HISTORY_LIMIT, history_words
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service, ServiceFacts
from orbitkb.git import SubprocessGitReader


def folders_as_services(clone: Path) -> list[ServiceFacts]:
    names = sorted(p.name for p in clone.iterdir() if p.is_dir() and not p.name.startswith("."))
    return [ServiceFacts(Service(service_id(clone.name, n), n, clone.name, n, "unknown")) for n in names]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, default=Path("/work/clones"))
    ap.add_argument("--limit", type=int, default=HISTORY_LIMIT)
    ap.add_argument("--only", action="append")
    args = ap.parse_args()
    reader = SubprocessGitReader()
    print("| clone | commits read | git log s | bags s | services with history |\n|---|---:|---:|---:|---:|")
    total = 0.0
    for clone in sorted(p for p in args.clones.iterdir() if (p / ".git").exists()):
        if args.only and clone.name not in args.only:
            continue
        started = time.perf_counter()
        commits = reader.history(str(clone), "HEAD", args.limit)
        read = time.perf_counter() - started
        started = time.perf_counter()
        bags = history_words(folders_as_services(clone), commits)
        bagged = time.perf_counter() - started
        total += read + bagged
        print(f"| {clone.name} | {len(commits)} | {read:.3f} | {bagged:.3f} | {len(bags)} |")
    print(f"\ntotal {total:.2f} s")


if __name__ == "__main__":
    main()
