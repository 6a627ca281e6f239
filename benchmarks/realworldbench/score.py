"""Precision / recall / F1 of extracted facts against one repository's ground truth."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from attrs import frozen

from . import normalize as norm
from .extract import Item

CATEGORIES = ("services", "endpoints", "calls", "messaging", "persistence", "entities", "external")


@frozen
class Expected:
    key: tuple[str, ...]
    where: str
    optional: bool


@frozen
class Score:
    tp: int
    fn: int
    fp: int
    misses: tuple[str, ...]
    false_positives: tuple[str, ...]

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None

    @property
    def f1(self) -> float | None:
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None if p is None and r is None else 0.0
        return 2 * p * r / (p + r) if p + r else 0.0


def expected(truth: Mapping[str, Any]) -> dict[str, list[Expected]]:
    def opt(rec: Mapping[str, Any]) -> bool:
        return bool(rec.get("optional") or rec.get("uncertain"))

    out: dict[str, list[Expected]] = {k: [] for k in CATEGORIES}
    for s in truth.get("services", []):
        out["services"].append(Expected((s["name"],), s.get("evidence", "?"), opt(s)))
    for e in truth.get("endpoints", []):
        m = e["method"].upper()
        out["endpoints"].append(Expected((e["service"], m, norm.path(m, e["path"])),
                                         f"{e.get('evidence', '?')} {m} {e['path']}", opt(e)))
    for c in truth.get("calls", []):
        out["calls"].append(Expected((c["from"], c["to"], c["protocol"].lower()), c.get("evidence", "?"), opt(c)))
    for m in truth.get("messaging", []):
        out["messaging"].append(Expected((m["service"], m["direction"], norm.channel(m["channel"])),
                                         f"{m.get('evidence', '?')} [{m.get('provider', '?')}]", opt(m)))
    for p in truth.get("persistence", []):
        out["persistence"].append(Expected((p["service"], norm.engine(p["engine"])), p.get("evidence", "?"), opt(p)))
        for e in p.get("entities", []):
            names = tuple(sorted({norm.name(x) for x in (e.get("class"), e.get("name")) if x}))
            out["entities"].append(Expected((p["service"], *names), f"{e.get('evidence', '?')} "
                                            f"{e.get('class') or ''}/{e.get('name') or ''}", opt(p) or opt(e)))
    for x in truth.get("external", []):
        out["external"].append(Expected((x["service"], norm.vendor(x["vendor"])), x.get("evidence", "?"), opt(x)))
    return out


def _same(kind: str) -> Callable[[tuple[str, ...], tuple[str, ...]], bool]:
    if kind == "entities":
        return lambda t, g: t[0] == g[0] and bool(set(t[1:]) & set(g[1:]))
    if kind == "endpoints":
        return lambda t, g: t[0] == g[0] and t[2] == g[2] and (t[1] in ("ANY", g[1]) or g[1] == "ANY")
    if kind == "external":
        return lambda t, g: t[0] == g[0] and (t[1] == g[1] or t[1] in g[1] or g[1] in t[1])
    return lambda t, g: t == g


def score(kind: str, want: list[Expected], got: list[Item]) -> Score:
    same = _same(kind)
    found: dict[tuple[str, ...], str] = {}
    for g in got:
        found.setdefault(g.key, g.where)
    tp, misses, used = 0, [], set()
    for w in want:
        hits = [k for k in found if same(w.key, k)]
        used.update(hits)
        if w.optional:
            continue
        if hits:
            tp += 1
        else:
            misses.append(f"{'/'.join(w.key)} @ {w.where}")
    fps = sorted(f"{'/'.join(k)} @ {found[k]}" for k in found if k not in used)
    return Score(tp, len(misses), len(fps), tuple(sorted(misses)), tuple(fps))
