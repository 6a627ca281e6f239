"""Precision, recall and F1 of a predicted service set against the truth, macro-averaged over
tasks, and the calibration of confidence (bucketed: is a 0.8 right about 80% of the time?)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from attrs import frozen

BUCKETS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@frozen
class Scored:
    precision: float
    recall: float
    f1: float
    tp: tuple[str, ...]
    fp: tuple[str, ...]
    fn: tuple[str, ...]


def score(predicted: Iterable[str], expected: Iterable[str]) -> Scored:
    """An empty prediction scores precision 0 (it answered nothing useful), not 'undefined':
    a tool must not look precise by staying silent."""
    p, e = set(predicted), set(expected)
    tp, fp, fn = p & e, p - e, e - p
    precision = len(tp) / len(p) if p else 0.0
    recall = len(tp) / len(e) if e else (1.0 if not p else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return Scored(
        round(precision, 4),
        round(recall, 4),
        round(f1, 4),
        tuple(sorted(tp)),
        tuple(sorted(fp)),
        tuple(sorted(fn)),
    )


def macro(rows: Sequence[Scored]) -> dict[str, float]:
    n = len(rows) or 1
    return {
        "precision": round(sum(r.precision for r in rows) / n, 4),
        "recall": round(sum(r.recall for r in rows) / n, 4),
        "f1": round(sum(r.f1 for r in rows) / n, 4),
        "exact": round(sum(1 for r in rows if r.precision == 1.0 and r.recall == 1.0) / n, 4),
        "tasks": len(rows),
    }


def _bucket(conf: float) -> int:
    for i in range(len(BUCKETS) - 1):
        if conf < BUCKETS[i + 1]:
            return i
    return len(BUCKETS) - 2  # 1.0 belongs to the last bucket


def calibration(points: Iterable[tuple[float, bool]]) -> dict[str, Any]:
    """points: (confidence, was it right). Returns per-bucket counts, mean confidence, observed
    accuracy, and the expected calibration error (weighted |confidence - accuracy|)."""
    buckets: list[list[tuple[float, bool]]] = [[] for _ in BUCKETS[:-1]]
    for conf, ok in points:
        buckets[_bucket(max(0.0, min(1.0, conf)))].append((conf, ok))
    total = sum(len(b) for b in buckets)
    rows, ece = [], 0.0
    for i, b in enumerate(buckets):
        label = f"{BUCKETS[i]:.1f}-{BUCKETS[i + 1]:.1f}"
        if not b:
            rows.append({"bucket": label, "n": 0, "mean_confidence": None, "observed": None})
            continue
        mean_conf = sum(c for c, _ in b) / len(b)
        observed = sum(1 for _, ok in b if ok) / len(b)
        ece += len(b) / total * abs(mean_conf - observed)
        rows.append(
            {
                "bucket": label,
                "n": len(b),
                "mean_confidence": round(mean_conf, 3),
                "observed": round(observed, 3),
            }
        )
    return {"buckets": rows, "ece": round(ece, 4) if total else None, "points": total}
