"""Markdown tables of a benchmark result: quality per method and task set, calibration of
confidence, and the per-task failures the tuning starts from."""

from __future__ import annotations

from typing import Any

MODE_LABEL = {"keyword": "orbitkb offline, keyword", "hybrid": "orbitkb offline, hybrid"}


def _fmt(x: Any) -> str:
    return "—" if x is None else f"{x:.2f}" if isinstance(x, float) else str(x)


def _line(method: str, tset: str, m: dict[str, Any]) -> str:
    if not m:
        return ""
    return (
        f"| {method} | {tset} | {m['tasks']} | {_fmt(m['precision'])} | {_fmt(m['recall'])} | "
        f"{_fmt(m['f1'])} | {_fmt(m['exact'])} |"
    )


def quality_table(result: dict[str, Any]) -> str:
    out = ["| method | tasks | n | precision | recall | F1 | exact |", "|---|---|---|---|---|---|---|"]
    systems = sorted(
        {name for runs in result["modes"].values() for name in runs["corpus"].get("per_system", {})}
    )
    sets = [(("corpus", name), f"corpus: {name}") for name in systems]
    sets += [(("corpus", name), f"corpus: {name}, name absent") for name in systems if name != "synthetic"]
    sets.append((("replay", None), "git replay"))
    baselines_done: set[str] = set()
    for (set_key, system), label in sets:
        absent = "name absent" in label
        for mode, runs in result["modes"].items():
            part = runs.get(set_key) or {}
            s = part.get("per_system", {}).get(system) if system else part.get("summary")
            if not s:
                continue
            key = "orbitkb_name_absent" if absent else "orbitkb"
            out.append(_line(f"{MODE_LABEL[mode]} (primary+secondary)", label, s[key]))
            if not absent:
                out.append(_line(f"{MODE_LABEL[mode]} (primary only)", label, s["orbitkb_primary_only"]))
        first = next(
            (
                r[set_key]["per_system"][system] if system else r[set_key]["summary"]
                for r in result["modes"].values()
                if r.get(set_key)
            ),
            None,
        )
        if first and label not in baselines_done:
            baselines_done.add(label)
            suffix = "_name_absent" if absent else ""
            out.append(
                _line(
                    "baseline bm25 on raw files, k = #expected",
                    label,
                    first.get("baseline_k_expected" + suffix, {}),
                )
            )
            out.append(
                _line("baseline bm25 on raw files, k = 2", label, first.get("baseline_k2" + suffix, {}))
            )
    return "\n".join(x for x in out if x)


def calibration_table(result: dict[str, Any]) -> str:
    cols = [
        (mode, set_key)
        for mode, runs in result["modes"].items()
        for set_key in ("corpus", "replay")
        if runs.get(set_key)
    ]
    head = "| confidence | " + " | ".join(f"{m} {s}: n / right" for m, s in cols) + " |"
    out = [head, "|---|" + "---|" * len(cols)]
    cal = {c: result["modes"][c[0]][c[1]]["summary"]["calibration"] for c in cols}
    buckets = [b["bucket"] for b in next(iter(cal.values()))["buckets"]] if cal else []
    for i, label in enumerate(buckets):
        cells = []
        for c in cols:
            b = cal[c]["buckets"][i]
            cells.append(f"{b['n']} / {_fmt(b['observed'])}" if b["n"] else "0")
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out.append("| ECE | " + " | ".join(_fmt(cal[c]["ece"]) for c in cols) + " |")
    return "\n".join(out)


def cutoff_table(result: dict[str, Any]) -> str:
    """Precision/recall/F1 if only findings at or above a confidence were kept (the knob)."""
    out = ["| mode | tasks | cut-off | precision | recall | F1 |", "|---|---|---|---|---|---|"]
    for mode, runs in result["modes"].items():
        for set_key in ("corpus", "replay"):
            if runs.get(set_key):
                for t, m in runs[set_key]["summary"]["orbitkb_confidence_cutoff"].items():
                    out.append(
                        f"| {mode} | {set_key} | >= {t} | {_fmt(m['precision'])} | {_fmt(m['recall'])} | "
                        f"{_fmt(m['f1'])} |"
                    )
    return "\n".join(out)


def failures(rows: list[dict[str, Any]]) -> str:
    out = []
    for r in rows:
        if r["false_negatives"] or r["false_positives"]:
            miss = ", ".join(f"{k} ({v})" for k, v in sorted(r["misses"].items()))
            extra = ", ".join(
                f"{f['service']} {f['tier'][0]}{f['confidence']:.2f}"
                for f in r["findings"]
                if f["service"] in r["false_positives"]
            )
            out.append(f'- {r["id"]} "{r["task"]}": missed [{miss}] extra [{extra}]')
    return "\n".join(out)


def render(result: dict[str, Any], details: bool = False) -> str:
    parts = [
        "### Quality (macro-averaged over tasks)",
        "",
        quality_table(result),
        "",
        "### Calibration of confidence (primary + secondary findings)",
        "",
        calibration_table(result),
    ]
    if details:
        parts += ["", "### If only findings above a confidence were kept", "", cutoff_table(result)]
        for mode, runs in result["modes"].items():
            for set_key in ("corpus", "replay"):
                if runs.get(set_key):
                    parts += ["", f"### Failures: {mode}, {set_key}", "", failures(runs[set_key]["rows"])]
    return "\n".join(parts) + "\n"
