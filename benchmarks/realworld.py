"""Extraction quality on real public repositories (issue 11): index each clone of the corpus at its
commit, offline, and score services, endpoints, calls, messaging, persistence, entities and
external vendors against the hand-written ground truth in benchmarks/realworld/truth/.

    uv run python benchmarks/realworld.py --clones DIR [--split tune|report] [--only NAME ...] [--details] [--out DIR]

DIR holds one clone per repository of benchmarks/realworld/repos.json, named as its ``name``.
Writes realworld.md, realworld.json and one database per repository into --out (default benchmarks/out);
give each concurrent run its own --out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from realworldbench.extract import extracted, index  # noqa: E402
from realworldbench.score import CATEGORIES, Score, expected, score  # noqa: E402

CORPUS = BENCH / "realworld"
OUT = BENCH / "out"


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def macro(rows: list[dict[str, Score]], kind: str) -> float | None:
    """Mean F1 over the repositories whose truth has required items of this kind."""
    vals = [r[kind].f1 for r in rows if r[kind].tp + r[kind].fn > 0]
    return sum(v or 0.0 for v in vals) / len(vals) if vals else None


def micro(rows: list[dict[str, Score]], kind: str) -> Score:
    return Score(sum(r[kind].tp for r in rows), sum(r[kind].fn for r in rows), sum(r[kind].fp for r in rows), (), ())


def run(clones: Path, repos: list[dict[str, Any]], progress: Any, out: Path = OUT) -> dict[str, dict[str, Score]]:
    results: dict[str, dict[str, Score]] = {}
    out.mkdir(parents=True, exist_ok=True)
    for r in repos:
        truth_file = CORPUS / "truth" / f"{r['name']}.json"
        clone = clones / r["name"]
        if not truth_file.exists() or not clone.exists():
            progress(f"skip {r['name']}: {'no truth' if not truth_file.exists() else 'no clone'}")
            continue
        truth = json.loads(truth_file.read_text())
        t0 = time.perf_counter()
        app = index(clone, r["name"], truth.get("commit") or r["commit"], out / f"realworld-{r['name']}.db")
        got = extracted(app, r["name"], truth)
        want = expected(truth)
        results[r["name"]] = {k: score(k, want[k], got[k]) for k in CATEGORIES}
        progress(f"{r['name']}: indexed and scored in {time.perf_counter() - t0:.1f} s")
    return results


def render(results: dict[str, dict[str, Score]], splits: dict[str, str], details: bool) -> str:
    lines = ["| repository | split | " + " | ".join(CATEGORIES) + " |", "|---|---|" + "---|" * len(CATEGORIES)]
    for name, row in results.items():
        cells = [f"{_fmt(row[k].f1)} ({row[k].tp}/{row[k].tp + row[k].fn}, fp {row[k].fp})" for k in CATEGORIES]
        lines.append(f"| {name} | {splits.get(name, '?')} | " + " | ".join(cells) + " |")
    for split in ("tune", "report", None):
        rows = [r for n, r in results.items() if split is None or splits.get(n) == split]
        if not rows:
            continue
        label = split or "all"
        lines.append(f"| **macro F1, {label}** ({len(rows)}) | | " + " | ".join(f"**{_fmt(macro(rows, k))}**" for k in CATEGORIES) + " |")
        mic = [micro(rows, k) for k in CATEGORIES]
        lines.append(f"| micro P / R, {label} | | " + " | ".join(f"{_fmt(s.precision)} / {_fmt(s.recall)}" for s in mic) + " |")
    text = "\n".join(lines) + "\n"
    if details:
        for name, row in results.items():
            text += f"\n## {name}\n"
            for k in CATEGORIES:
                s = row[k]
                if s.misses or s.false_positives:
                    text += f"\n### {k}: P {_fmt(s.precision)} R {_fmt(s.recall)}\n"
                    text += "".join(f"- miss: {m}\n" for m in s.misses)
                    text += "".join(f"- false positive: {m}\n" for m in s.false_positives)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, required=True, help="folder with one clone per repository")
    ap.add_argument("--split", choices=("tune", "report"))
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--details", action="store_true", help="print every miss and false positive")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--out", type=Path, default=OUT, help="folder for the report and the per-repository databases")
    args = ap.parse_args(argv)
    if not args.clones.is_dir():
        print(f"error: {args.clones} is not a folder of clones", file=sys.stderr)
        return 2
    repos = json.loads((CORPUS / "repos.json").read_text())["repositories"]
    repos = [r for r in repos if (not args.split or r["split"] == args.split) and (not args.only or r["name"] in args.only)]
    splits = {r["name"]: r["split"] for r in repos}
    results = run(args.clones, repos, (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr)), args.out)
    table = render(results, splits, details=False)
    full = render(results, splits, details=True)
    (args.out / "realworld.md").write_text(full, encoding="utf-8")
    (args.out / "realworld.json").write_text(json.dumps({
        n: {k: {"tp": s.tp, "fn": s.fn, "fp": s.fp, "precision": s.precision, "recall": s.recall, "f1": s.f1,
                "misses": list(s.misses), "false_positives": list(s.false_positives)} for k, s in row.items()}
        for n, row in results.items()}, indent=1), encoding="utf-8")
    print(full if args.details else table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
