"""Markdown report of a real-history run: quality per split against the baselines, answer shape
and calibration, per-repository figures, and every task orbitkb got wrong."""

from __future__ import annotations

from typing import Any

METHODS = (
    ("orbitkb", "orbitkb (primary+secondary)"),
    ("orbitkb_primary_only", "orbitkb (primary only)"),
    ("baseline_all", "baseline: every service"),
    ("baseline_bm25_top1", "baseline: bm25 top-1"),
    ("baseline_bm25_top2", "baseline: bm25 top-2"),
)


def _f(x: Any) -> str:
    return "—" if x is None else f"{x:.2f}" if isinstance(x, float) else str(x)


def quality(result: dict[str, Any]) -> str:
    out = ["| split | method | tasks | precision | recall | F1 | exact |", "|---|---|---|---|---|---|---|"]
    for split, s in (*result["per_split"].items(), ("all", result["summary"])):
        for key, label in METHODS:
            m = s.get(key)
            if m:
                out.append(
                    f"| {split} | {label} | {m['tasks']} | {_f(m['precision'])} | {_f(m['recall'])} | "
                    f"{_f(m['f1'])} | {_f(m['exact'])} |"
                )
    return "\n".join(out)


def shape(result: dict[str, Any]) -> str:
    out = [
        "| split | tasks | empty answers | services predicted / task | true / task | ECE | findings >= 0.8 "
        "| of which right | top finding right | truth service absent from the model |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for split, s in (*result["per_split"].items(), ("all", result["summary"])):
        out.append(
            f"| {split} | {s['tasks']} | {s['empty_answers']} | {_f(s['predicted_per_task'])} | "
            f"{_f(s['true_per_task'])} | {_f(s['calibration']['ece'])} | {s['confident_findings']} | "
            f"{_f(s['confident_right'])} | {_f(s['top1_right'])} | {s['tasks_truth_not_in_model']} |"
        )
    return "\n".join(out)


def per_repo(result: dict[str, Any]) -> str:
    out = [
        "| repository | split | tasks | orbitkb P | R | F1 | primary-only F1 | all F1 | bm25@1 F1 | bm25@2 F1 "
        "| empty | predicted / true |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for repo, s in result["per_repository"].items():
        o = s["orbitkb"]
        out.append(
            f"| {repo} | {s['split']} | {s['tasks']} | {_f(o['precision'])} | {_f(o['recall'])} | {_f(o['f1'])} | "
            f"{_f(s['orbitkb_primary_only']['f1'])} | {_f(s['baseline_all']['f1'])} | "
            f"{_f(s['baseline_bm25_top1']['f1'])} | {_f(s['baseline_bm25_top2']['f1'])} | {s['empty_answers']} | "
            f"{_f(s['predicted_per_task'])} / {_f(s['true_per_task'])} |"
        )
    return "\n".join(out)


def buckets(result: dict[str, Any]) -> str:
    out = ["| confidence | findings | mean stated | observed right |", "|---|---|---|---|"]
    for b in result["summary"]["calibration"]["buckets"]:
        out.append(f"| {b['bucket']} | {b['n']} | {_f(b['mean_confidence'])} | {_f(b['observed'])} |")
    return "\n".join(out)


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
    if details:
        parts += ["", "### Tasks not answered exactly (worst first)", "", failures(result["rows"])]
    return "\n".join(parts) + "\n"
