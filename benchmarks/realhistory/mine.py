"""Mines change-surface tasks from the real history of public repositories into tasks.json.

    uv run python benchmarks/realhistory/mine.py --clones /work/clones [--only NAME] [--per-repo 15]

Each task is one commit: the task text is its message (trailers and PR numbers stripped), the truth
is the services whose code files it changed (services.json maps folders to services, by hand).
Merges, version bumps, reverts, formatting sweeps, commits touching only tests/docs/CI/deploy
files, no service or more than five, commits with a message under three words or a web editor's
default message ("Update app.py", "Add files via upload"), and commits that
create a service (none of its code files exists at the parent: a folder holding only a README or
tests is a service still to be written) are dropped. Sampling is deterministic and
spread over time: the eligible commits, oldest first, are cut into --per-repo equal slices and
each slice gives the commit with the smallest sha256(repository + sha).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from realhistory import gitio  # noqa: E402
from realhistory.filters import clean_message, drop_reason, kind, touched  # noqa: E402
from realhistory.truthmap import SERVICES_FILE, ServiceMap, load, matches  # noqa: E402

TASKS_FILE = Path(__file__).resolve().parent / "tasks.json"
PER_REPO = 15
MAX_PATHS = 12


def _rank(repo: str, sha: str) -> str:
    return hashlib.sha256(f"{repo}:{sha}".encode()).hexdigest()


def _exists_at(paths: list[str], prefixes: tuple[str, ...]) -> bool:
    return any(matches(p, path) for p in prefixes for path in paths)


def mine_repo(
    clone: Path, smap: ServiceMap, per_repo: int = PER_REPO
) -> tuple[list[dict[str, Any]], Counter]:
    """The sampled tasks of one clone, and why every other commit was dropped."""
    reasons: Counter[str] = Counter()
    eligible = []
    for e in gitio.log(clone):
        why = drop_reason(e.parents, e.author, e.message, e.files, smap)
        if why:
            reasons[why] += 1
        else:
            eligible.append(e)
    eligible.sort(key=lambda e: (e.date, e.sha))
    n, k = len(eligible), min(per_repo, len(eligible))
    slices = [eligible[i * n // k : (i + 1) * n // k] for i in range(k)]
    tasks = []
    for chunk in slices:
        for e in sorted(chunk, key=lambda e: _rank(smap.repository, e.sha)):
            services = touched(e.files, smap)
            at_parent = [p for p, _, _ in gitio.tree(clone, e.parents[0]) if kind(p) == "code"]
            if not all(_exists_at(at_parent, smap.services[s]) for s in services):
                reasons["creates-service"] += 1
                continue
            tasks.append(
                {
                    "id": f"{smap.repository}@{e.sha[:8]}",
                    "repository": smap.repository,
                    "url": f"{smap.url}/commit/{e.sha}",
                    "split": smap.split,
                    "parent": e.parents[0],
                    "commit": e.sha,
                    "date": e.date,
                    "task": clean_message(e.message),
                    "expected": sorted(services),
                    "files": {s: sorted(fs)[:MAX_PATHS] for s, fs in sorted(services.items())},
                }
            )
            break
    reasons["eligible"] = n
    return tasks, reasons


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, required=True)
    ap.add_argument("--services", type=Path, default=SERVICES_FILE)
    ap.add_argument("--out", type=Path, default=TASKS_FILE)
    ap.add_argument("--only", action="append", help="mine only these repositories (repeatable)")
    ap.add_argument("--per-repo", type=int, default=PER_REPO)
    args = ap.parse_args(argv)
    maps = load(args.services)
    old = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() and args.only else {}
    tasks = [t for t in old.get("tasks", []) if t["repository"] not in (args.only or [])]
    stats = {k: v for k, v in old.get("mining", {}).items() if k not in (args.only or [])}
    for name, smap in sorted(maps.items()):
        if args.only and name not in args.only:
            continue
        clone = args.clones / name
        if not (clone / ".git").exists() and not (clone / "HEAD").exists():
            print(f"{name}: no clone at {clone}, skipped", file=sys.stderr)
            continue
        mined, reasons = mine_repo(clone, smap, args.per_repo)
        tasks += mined
        stats[name] = {"split": smap.split, "tasks": len(mined), **dict(sorted(reasons.items()))}
        print(f"{name}: {len(mined)} tasks ({reasons['eligible']} eligible) {dict(reasons)}", file=sys.stderr)
    tasks.sort(key=lambda t: (t["repository"], t["date"], t["commit"]))
    doc = {
        "_comment": "Mined by benchmarks/realhistory/mine.py from public repositories; truth = services "
        "whose code files the commit changed (benchmarks/realhistory/services.json). Do not edit by hand.",
        "per_repo": args.per_repo,
        "mining": dict(sorted(stats.items())),
        "tasks": tasks,
    }
    args.out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    splits = Counter(t["split"] for t in tasks)
    print(f"{len(tasks)} tasks from {len({t['repository'] for t in tasks})} repositories {dict(splits)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
