"""How often each confidence rule of the change surface is right on real history: the table behind
orbitkb.domain.change.classify.RULE_RATES.

    uv run python benchmarks/rule_rates.py --clones /work/clones --split tune
    uv run python benchmarks/rule_rates.py --clones /work/clones --split tune --cache DIR --out /tmp/me/rates

Runs the real-history tasks offline (benchmarks/realhistory.py, cached databases under --cache)
and labels every finding with the rule of classify.py that stated it (``Classified.rule``;
findings another step added are labelled by the start of their reason). For each tier and rule:
findings, mean stated confidence, observed rate (right for primary/secondary, "did not change" for
no_change_hint) and (right + 1) / (findings + 2), the figure RULE_RATES states. A primary beside
others is measured on the leaders (stated exactly its rule's rate); runners-up lose
RUNNER_UP_PENALTY and are shown on their own row. Tune the table on the tune half only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from realhistory import run as rh  # noqa: E402
from realhistory.mine import TASKS_FILE  # noqa: E402
from realhistory.run import summary  # noqa: E402
from realhistory.truthmap import load  # noqa: E402

import orbitkb.domain.usecases.change_surface as use_case  # noqa: E402
from orbitkb.domain.change.classify import RULE_RATES, Classified  # noqa: E402


def labelled_rows(tasks: list[dict[str, Any]], clones: Path, cache: Path) -> list[dict[str, Any]]:
    """realhistory's rows, each finding with the rule that stated it."""
    last: list[Classified] = []
    classify = use_case.classify

    def recording(*args: Any, **kwargs: Any) -> list[Classified]:
        last[:] = classify(*args, **kwargs)
        return last[:]

    use_case.classify = recording  # type: ignore[assignment]
    try:
        rows, maps = [], load()
        for t in tasks:
            app, info = rh.indexed_app(clones / t["repository"], t, "off", cache, False)
            last.clear()
            row = rh.run_task(app, info, clones / t["repository"], maps[t["repository"]], t)
            rules = {(c.service, c.tier): c.rule for c in last}
            for f in row["findings"]:
                rule = rules.get((f["orbitkb_service"].split("/")[-1], f["tier"]))
                f["rule"] = rule or "other: " + " ".join(f["reason"].split()[:4])
            rows.append(row)
        return rows
    finally:
        use_case.classify = classify  # type: ignore[assignment]


def table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    points: dict[tuple[str, str], list[tuple[float, bool]]] = defaultdict(list)
    for r in rows:
        for f in r["findings"]:
            changed = f["service"] in r["expected"]
            right = not changed if f["tier"] == "no_change_hint" else changed
            rule = f["rule"]
            if rule in RULE_RATES and f["tier"] == "primary" and f["confidence"] < RULE_RATES[rule]:
                rule += " (runner-up)"
            points[(f["tier"], rule)].append((f["confidence"], right))
    out = []
    for (tier, rule), pts in sorted(points.items()):
        n, k = len(pts), sum(r for _, r in pts)
        out.append({"tier": tier, "rule": rule, "findings": n, "right": k,
                    "stated": round(sum(c for c, _ in pts) / n, 2), "observed": round(k / n, 2),
                    "rate": round((k + 1) / (n + 2), 2), "table": RULE_RATES.get(rule)})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, default=Path("/work/clones"))
    ap.add_argument("--split", choices=("tune", "holdout"), default="tune")
    ap.add_argument("--only", action="append", help="only this repository (repeatable)")
    ap.add_argument("--cache", type=Path, default=BENCH / "out" / "realhistory")
    ap.add_argument("--out", type=Path, help="also write the table and summary as JSON here (.json added)")
    args = ap.parse_args(argv)
    tasks = json.loads(TASKS_FILE.read_text(encoding="utf-8"))["tasks"]
    tasks = [t for t in tasks if t["split"] == args.split and (args.clones / t["repository"]).exists()
             and (not args.only or t["repository"] in args.only)]
    if not tasks:
        print(f"no task to run (clones in {args.clones}?)", file=sys.stderr)
        return 2
    rows = labelled_rows(tasks, args.clones, args.cache / "db")
    rates, s = table(rows), summary(rows)
    print(f"{'tier':<15} {'rule':<40} {'findings':>8} {'stated':>6} {'right':>6} {'rate':>5} {'table':>5}")
    for t in rates:
        table_rate = "" if t["table"] is None else f"{t['table']:.2f}"
        print(f"{t['tier']:<15} {t['rule']:<40} {t['findings']:>8} {t['stated']:>6.2f} {t['observed']:>6.2f} "
              f"{t['rate']:>5.2f} {table_rate:>5}")
    print(f"{len(rows)} tasks: P/R/F1 {s['orbitkb']['precision']:.3f}/{s['orbitkb']['recall']:.3f}/"
          f"{s['orbitkb']['f1']:.3f}; ECE {s['calibration']['ece']}; >= 0.8: {s['confident_findings']} "
          f"findings, {s['confident_right']} right; no_change_hint ECE {s['calibration_no_change_hint']['ece']}")
    if args.out:
        Path(f"{args.out}.json").write_text(json.dumps({"split": args.split, "rules": rates, "summary": s},
                                                       indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
