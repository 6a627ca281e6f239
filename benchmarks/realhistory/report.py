"""Markdown report of a real-history run: quality per split against the baselines, answer shape
and calibration, per-repository figures, and every task orbitkb got wrong."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

METHODS = (
    ("orbitkb", "orbitkb (primary+secondary)"),
    ("orbitkb_primary_only", "orbitkb (primary only)"),
    ("baseline_all", "baseline: every service"),
    ("baseline_bm25_top1", "baseline: bm25 top-1"),
    ("baseline_bm25_top2", "baseline: bm25 top-2"),
    ("baseline_previous", "baseline: the previous commit's services (task not read)"),
)


def _f(x: Any) -> str:
    return "—" if x is None else f"{x:.2f}" if isinstance(x, float) else str(x)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A markdown table: one header row, its rule, then the rows with every cell through ``_f``."""
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_f(cell) for cell in row) + " |" for row in rows]
    return "\n".join(out)


def _splits(result: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each split's summary, then all tasks'."""
    return [*result["per_split"].items(), ("all", result["summary"])]


def quality(result: dict[str, Any]) -> str:
    return _table(
        ("split", "method", "tasks", "precision", "recall", "F1", "exact"),
        (
            (split, label, m["tasks"], m["precision"], m["recall"], m["f1"], m["exact"])
            for split, s in _splits(result)
            for key, label in METHODS
            if (m := s.get(key))
        ),
    )


def shape(result: dict[str, Any]) -> str:
    return _table(
        ("split", "tasks", "empty answers", "services predicted / task", "true / task", "ECE", "findings >= 0.8",
         "of which right", "top finding right", "truth service absent from the model"),  # fmt: skip
        (
            (split, s["tasks"], s["empty_answers"], s["predicted_per_task"], s["true_per_task"],
             s["calibration"]["ece"], s["confident_findings"], s["confident_right"], s["top1_right"],
             s["tasks_truth_not_in_model"])  # fmt: skip
            for split, s in _splits(result)
        ),
    )


def per_repo(result: dict[str, Any]) -> str:
    return _table(
        ("repository", "split", "tasks", "orbitkb P", "R", "F1", "primary-only F1", "all F1", "bm25@1 F1",
         "bm25@2 F1", "empty", "predicted / true"),  # fmt: skip
        (
            (repo, s["split"], s["tasks"], s["orbitkb"]["precision"], s["orbitkb"]["recall"], s["orbitkb"]["f1"],
             s["orbitkb_primary_only"]["f1"], s["baseline_all"]["f1"], s["baseline_bm25_top1"]["f1"],
             s["baseline_bm25_top2"]["f1"], s["empty_answers"],
             f"{_f(s['predicted_per_task'])} / {_f(s['true_per_task'])}")  # fmt: skip
            for repo, s in result["per_repository"].items()
        ),
    )


def buckets(result: dict[str, Any]) -> str:
    return _table(
        ("confidence", "findings", "mean stated", "observed right"),
        ((b["bucket"], b["n"], b["mean_confidence"], b["observed"]) for b in result["summary"]["calibration"]["buckets"]),
    )


def failures(rows: list[dict[str, Any]]) -> str:
    out = []
    for r in sorted(rows, key=lambda r: (r["f1"], r["id"])):
        if r["f1"] == 1.0:
            continue
        said = ", ".join(
            f"{f['orbitkb_service']}→{f['service']} {f['tier'][0]}{f['confidence']:.2f}"
            for f in r["findings"]
            if f["tier"] != "no_change_hint"
        )
        first = r["task"].split("\n", 1)[0][:100]
        extra = f"; not in the model: {', '.join(r['not_in_model'])}" if r["not_in_model"] else ""
        out.append(
            f'- {r["id"]} "{first}": true [{", ".join(r["expected"])}], said [{said or "nothing"}]{extra}'
        )
    return "\n".join(out)


def render(result: dict[str, Any], details: bool = True) -> str:
    head = (
        f"Embedder: {result['embedder']} (in use: {result['embedder_in_use']}); {result['summary']['tasks']} tasks "
        f"from {len(result['per_repository'])} repositories; {result['date']}; `{result['command']}`"
    )
    parts = [
        head,
        "",
        "### Quality (macro over tasks)",
        "",
        quality(result),
        "",
        "### Answer shape and calibration",
        "",
        shape(result),
        "",
        "### Per repository",
        "",
        per_repo(result),
        "",
        "### Calibration of primary + secondary confidence (all tasks)",
        "",
        buckets(result),
    ]
    off = result.get("offtopic")
    if off:
        parts += ["", "### Abstention on off-topic text (realhistory/offtopic.py, not the calibration set)", "",
                  f"{off['asked']} questions ({off['repositories']} repositories x the sentences): empty answers "
                  f"{off['empty_rate']:.0%}, answered {off['answered']}"
                  + "".join(f"\n- {repo}: " + "; ".join(v) for repo, v in sorted(off["answered_by_repository"].items()))]
    if details:
        parts += ["", "### Tasks not answered exactly (worst first)", "", failures(result["rows"])]
    return "\n".join(parts) + "\n"
