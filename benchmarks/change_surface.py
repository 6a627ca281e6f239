"""Change-surface quality benchmark (issue 6, item 6): does find_change_surface name the services
a change really touches?

    uv run python benchmarks/change_surface.py              # everything available
    uv run python benchmarks/change_surface.py --no-hybrid --no-replay --details

Runs the task corpus (benchmarks/change_surface_tasks.json, plus tasks derived from what
benchmarks/synth.py planted in a generated system) and a replay of a git history built
on examples/shopfront (benchmarks/changebench/history.py: each commit message is the task, the
services its diff touches are the truth; the parent is indexed with --commit), in keyword mode
(embedder off) and, when the packaged embedder is installed, hybrid mode. Each task is also
answered by a baseline: bm25 over each service's raw source files, top-k services. Prints
Markdown tables and writes benchmarks/out/change_surface.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from changebench.corpus import TASKS_FILE  # noqa: E402
from changebench.report import render  # noqa: E402
from changebench.suite import hybrid_available, run_corpus, run_replay  # noqa: E402
from changebench.synthetic import generate, tasks_from_expected  # noqa: E402

DOC = BENCH / "CHANGE_SURFACE.md"
START, END = "<!-- results:start -->", "<!-- results:end -->"


def update_doc(table: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    DOC.write_text(f"{head}{START}\n{table}{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=Path, default=TASKS_FILE)
    ap.add_argument("--out", type=Path, default=BENCH / "out" / "change_surface.json")
    ap.add_argument("--no-hybrid", action="store_true", help="keyword mode only")
    ap.add_argument("--no-replay", action="store_true", help="skip the git-history replay")
    ap.add_argument(
        "--no-synthetic", action="store_true", help="skip the synthetic system (benchmarks/synth.py)"
    )
    ap.add_argument("--details", action="store_true", help="also print every failing task")
    ap.add_argument("--update-doc", action="store_true", help=f"rewrite the results section of {DOC.name}")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)

    def progress(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr)

    modes = ["keyword"]
    if not args.no_hybrid:
        if hybrid_available():
            modes.append("hybrid")
        else:
            progress("packaged embedder not installed: keyword mode only")
    started = time.monotonic()
    result: dict = {
        "tasks_file": str(args.tasks.relative_to(BENCH.parent))
        if args.tasks.is_relative_to(BENCH.parent)
        else str(args.tasks),
        "modes": {},
    }
    with tempfile.TemporaryDirectory(prefix="orbitkb-cs-") as tmp:
        work = Path(tmp)
        extra = {}
        if not args.no_synthetic:
            doc = generate(work / "synthetic")
            extra["synthetic"] = (work / "synthetic", tasks_from_expected(doc))
        for mode in modes:
            runs = {"corpus": run_corpus(mode, work, args.tasks, progress, extra)}
            if not args.no_replay:
                runs["replay"] = run_replay(mode, work, BENCH.parent / "examples" / "shopfront", progress)
            result["modes"][mode] = runs
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    table = render(result, details=False)
    print(render(result, details=args.details))
    progress(f"wrote {args.out} in {time.monotonic() - started:.0f}s")
    if args.update_doc:
        update_doc(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
