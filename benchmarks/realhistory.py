"""Change-surface benchmark on the real git history of public repositories.

    uv run python benchmarks/realhistory.py --clones /work/clones --embedder off
    uv run python benchmarks/realhistory.py --clones DIR --only bank-of-anthos --split holdout --limit 5
    uv run python benchmarks/realhistory.py --clones DIR --split holdout --list   # tasks per repository, no scoring

For each task of benchmarks/realhistory/tasks.json (mined by benchmarks/realhistory/mine.py), the
clone is indexed at the task's parent commit (IndexRequest(commit=parent); one database per
repository and parent, cached under benchmarks/out/realhistory/), find_change_surface is asked
with the commit message, and primary + secondary are scored against the services the commit
really changed. Each predicted service is mapped to a truth service through its root folder;
one that maps to none is a false positive. Baselines on the same tasks: every service, and bm25
over each service's files at the parent (top-1, top-2). Writes benchmarks/out/realhistory.md and
.json and prints the summary tables.

A cached database is indexed again when its marker does not record this tree's analysis version
(the CodeAnalyzer port's ``version``). After an analyzer change, refit the change surface's
evidence mix on the tune tasks, ONE command (it records what it was fitted on in ranking.json;
tests/unit/change/test_ranking_fitted_on.py fails until it is rerun):

    uv run python benchmarks/realhistory/fit.py --clones /work/clones --cache DIR --write
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from changebench.runner import make_app  # noqa: E402
from realhistory.mine import TASKS_FILE  # noqa: E402
from realhistory.offtopic import abstention  # noqa: E402
from realhistory.report import render  # noqa: E402
from realhistory.run import group, run, summary  # noqa: E402
from realhistory.truthmap import load  # noqa: E402

OUT = BENCH / "out"


def embedder_in_use(embedder: str) -> bool:
    with tempfile.TemporaryDirectory() as d:
        return make_app(str(Path(d) / "probe.db"), embedder).adapters.embedder() is not None


def listing(tasks: list[dict[str, Any]]) -> str:
    """One line per repository (name, split, tasks), then the total per split."""
    per_repo = Counter((t["repository"], t["split"]) for t in tasks)
    lines = [f"{repo}\t{split}\t{n}" for (repo, split), n in sorted(per_repo.items())]
    per_split = Counter(t["split"] for t in tasks)
    repos = Counter(split for _, split in per_repo)
    lines += [f"{split}: {per_split[split]} tasks from {repos[split]} repositories" for split in sorted(per_split)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, default=Path(os.environ.get("ORBITKB_CLONES", "/work/clones")))
    ap.add_argument("--tasks", type=Path, default=TASKS_FILE)
    ap.add_argument("--only", action="append", help="only this repository (repeatable)")
    ap.add_argument("--split", choices=("tune", "holdout"))
    ap.add_argument("--embedder", choices=("auto", "off"), default="off")
    ap.add_argument("--limit", type=int, help="at most N tasks per repository")
    ap.add_argument("--cache", type=Path, default=OUT / "realhistory")
    ap.add_argument("--reindex", action="store_true", help="ignore cached databases")
    ap.add_argument("--stale-ok", action="store_true",
                    help="score cached databases whatever analysis version indexed them (to compare rankings on "
                         "one fixed index); by default a database of another version is indexed again")
    ap.add_argument("--out", type=Path, default=OUT / "realhistory")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--list", action="store_true",
                    help="print the selected tasks per repository (split, count) and stop: nothing indexed or scored")
    ap.add_argument("--no-offtopic", action="store_true",
                    help="skip asking each repository the off-topic sentences (realhistory/offtopic.py)")
    args = ap.parse_args(argv)

    def progress(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    tasks = json.loads(args.tasks.read_text(encoding="utf-8"))["tasks"]
    tasks = [t for t in tasks if (not args.only or t["repository"] in args.only)]
    tasks = [t for t in tasks if (not args.split or t["split"] == args.split)]
    tasks = [t for t in tasks if (args.clones / t["repository"]).exists()]
    if args.limit:
        seen: dict[str, int] = {}
        tasks = [
            t
            for t in tasks
            if (
                seen.__setitem__(t["repository"], seen.get(t["repository"], 0) + 1)
                or seen[t["repository"]] <= args.limit
            )
        ]
    if not tasks:
        print(f"no task to run (clones in {args.clones}?)", file=sys.stderr)
        return 2
    if args.list:
        print(listing(tasks))
        return 0
    started = time.monotonic()
    progress(f"{len(tasks)} tasks, embedder {args.embedder}")
    rows = run(tasks, load(), args.clones, args.embedder, args.cache / "db", args.reindex, progress, args.stale_ok)
    per_repo = group(rows, "repository")
    for repo, s in per_repo.items():
        s["split"] = next(r["split"] for r in rows if r["repository"] == repo)
    result = {
        "date": datetime.date.today().isoformat(),
        "command": "uv run python benchmarks/realhistory.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "embedder": args.embedder,
        "embedder_in_use": embedder_in_use(args.embedder),
        "seconds": round(time.monotonic() - started, 1),
        "summary": summary(rows),
        "per_split": group(rows, "split"),
        "per_repository": per_repo,
        "rows": rows,
        "offtopic": None if args.no_offtopic else abstention(tasks, args.clones, args.embedder, args.cache / "db"),
    }
    out = args.out if args.out.suffix == "" else args.out.with_suffix("")
    suffix = "" if args.embedder == "off" else f"-{args.embedder}"
    out.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{out}{suffix}.json").write_text(
        json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    Path(f"{out}{suffix}.md").write_text("## Real history\n\n" + render(result), encoding="utf-8")
    print(render(result, details=False))
    progress(f"wrote {out}{suffix}.md and .json in {result['seconds']}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
