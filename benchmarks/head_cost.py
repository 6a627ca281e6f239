"""What asking a repository's HEAD costs per read (freshness is on every answer), before and after
the HEAD cache: ``git rev-parse`` every time (a new reader per call) against one reader that
asks git again only when HEAD, its ref or packed-refs changed on disk.

    uv run python benchmarks/head_cost.py [--repo PATH] [--calls 30]

PATH defaults to this checkout. Prints the median milliseconds per call of each.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchlib.timing import median_ms

from orbitkb.git import SubprocessGitReader


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    ap.add_argument("--calls", type=int, default=30)
    args = ap.parse_args(argv)
    uncached = median_ms(lambda: SubprocessGitReader().head_commit(args.repo), args.calls)
    reader = SubprocessGitReader()
    head = reader.head_commit(args.repo)
    reader.head_commit(args.repo)  # the first call learns the git directories, the second caches
    cached = median_ms(lambda: reader.head_commit(args.repo), args.calls)
    assert reader.head_commit(args.repo) == head
    print("| HEAD of a repository | ms per call |\n|---|---|")
    print(f"| git rev-parse each time (before) | {uncached:.2f} |\n| cached until HEAD moves (after) | {cached:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
