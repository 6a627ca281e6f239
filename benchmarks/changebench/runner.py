"""Runs find_change_surface on tasks through the composition root and scores each answer
(primary + secondary against the expected services), next to the bm25 baseline."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.usecases.indexing import IndexRequest

from .baseline import Bm25
from .corpus import Task, named_services
from .metrics import Scored, calibration, macro, score

PREDICTED_TIERS = ("primary", "secondary")
SWEEP = (0.3, 0.5, 0.6, 0.7, 0.8)


def make_app(db_path: str, embedder: str) -> Any:
    return build_application(Settings(db_path=db_path, backend="offline", embedder=embedder))


def index(app: Any, path: str, name: str, commit: str | None = None) -> Any:
    return app.use_cases.index_repository()(IndexRequest(path, repository_name=name, commit=commit))


def predict(app: Any, task: str, record: bool = False) -> dict[str, Any]:
    surface = app.use_cases.find_change_surface()(task, (), record=record)
    tiers = []
    for tier in ("primary", "secondary", "no_change_hint"):
        for f in getattr(surface, tier):
            tiers.append(
                {"service": f.service, "tier": tier, "confidence": f.confidence, "reason": f.reason}
            )
    return {"findings": tiers, "retrieval": surface.retrieval, "run_id": surface.run_id, "note": surface.note}


def evaluate(
    task: Task, answer: dict[str, Any], services: Sequence[Any], bm25: Bm25 | None
) -> dict[str, Any]:
    """One task's record: orbitkb's tiers and scores, why each miss was missed, and the baseline."""
    findings = answer["findings"]
    predicted = sorted({f["service"] for f in findings if f["tier"] in PREDICTED_TIERS})
    primary = sorted({f["service"] for f in findings if f["tier"] == "primary"})
    s = score(predicted, task.expected)
    tier_of = {f["service"]: f["tier"] for f in findings}
    row: dict[str, Any] = {
        "id": task.id,
        "task": task.task,
        "expected": list(task.expected),
        "predicted": predicted,
        "primary": primary,
        "precision": s.precision,
        "recall": s.recall,
        "f1": s.f1,
        "false_positives": list(s.fp),
        "false_negatives": list(s.fn),
        # a miss found by expansion but demoted differs from a miss never retrieved at all
        "misses": {name: tier_of.get(name, "not_retrieved") for name in s.fn},
        "names_expected": bool(set(named_services(task.task, services)) & set(task.expected)),
        "findings": findings,
        "retrieval": answer["retrieval"],
    }
    if bm25 is not None:
        for label, k in (("baseline_k_expected", len(task.expected)), ("baseline_k2", 2)):
            b = score(bm25.top(task.task, k), task.expected)
            row[label] = {
                "predicted": sorted(bm25.top(task.task, k)),
                "precision": b.precision,
                "recall": b.recall,
                "f1": b.f1,
            }
    return row


def _best(row: dict[str, Any]) -> str | None:
    ranked = sorted(
        (f for f in row["findings"] if f["tier"] in PREDICTED_TIERS),
        key=lambda f: (f["tier"] != "primary", -f["confidence"], f["service"]),
    )
    return ranked[0]["service"] if ranked else None


def summarize(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Macro P/R/F1 for orbitkb (all, primary only) and the baselines, split by vocabulary, and
    calibration of primary+secondary confidence (and of no_change_hint, whose confidence is the
    probability that the service does NOT change)."""

    def agg(key: str | None, subset: Sequence[dict[str, Any]]) -> dict[str, float]:
        src = [r if key is None else r[key] for r in subset if key is None or key in r]
        return macro([Scored(x["precision"], x["recall"], x["f1"], (), (), ()) for x in src]) if src else {}

    def primary_only(r: dict[str, Any]) -> dict[str, Any]:
        p = score(r["primary"], r["expected"])
        return {"precision": p.precision, "recall": p.recall, "f1": p.f1}

    named = [r for r in rows if r["names_expected"]]
    unnamed = [r for r in rows if not r["names_expected"]]
    points, nch = [], []
    for r in rows:
        exp = set(r["expected"])
        for f in r["findings"]:
            if f["tier"] in PREDICTED_TIERS:
                points.append((f["confidence"], f["service"] in exp))
            else:
                nch.append((f["confidence"], f["service"] not in exp))
    sweep = {}
    for t in SWEEP:
        kept = [
            score(
                {
                    f["service"]
                    for f in r["findings"]
                    if f["tier"] in PREDICTED_TIERS and f["confidence"] >= t
                },
                r["expected"],
            )
            for r in rows
        ]
        sweep[f"{t:.1f}"] = agg(
            None, [{"precision": k.precision, "recall": k.recall, "f1": k.f1} for k in kept]
        )
    top1 = [r for r in rows if r["findings"]]
    out = {
        # what a confidence cut-off would give: the tuning knob of classify.py
        "orbitkb_confidence_cutoff": sweep,
        "top1_right": round(sum(1 for r in top1 if _best(r) in r["expected"]) / (len(rows) or 1), 4),
        "orbitkb": agg(None, rows),
        "orbitkb_primary_only": agg(None, [primary_only(r) for r in rows]),
        "orbitkb_names_expected": agg(None, named),
        "orbitkb_name_absent": agg(None, unnamed),
        "calibration": calibration(points),
        "calibration_no_change_hint": calibration(nch),
        "tasks": len(rows),
        "tasks_name_absent": len(unnamed),
    }
    for label in ("baseline_k_expected", "baseline_k2"):
        if rows and label in rows[0]:
            out[label] = agg(label, rows)
            out[label + "_name_absent"] = agg(label, unnamed)
    return out
