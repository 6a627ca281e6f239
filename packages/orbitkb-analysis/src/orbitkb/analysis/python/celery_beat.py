"""Celery beat: the scheduler publishes each periodic task by name, so every entry of a beat
schedule (``CELERY_BEAT_SCHEDULE`` in Django settings, ``app.conf.beat_schedule = {...}``,
``conf.update(beat_schedule=...)``) and every ``add_periodic_task(..., task.s())`` is a publish
of that task's channel."""

from __future__ import annotations

from orbitkb.analysis.facts import Expr, Lit, RawMessage
from orbitkb.analysis.python.ir import Node, literal
from orbitkb.analysis.python.linkctx import LinkState
from orbitkb.analysis.python.signatures import CELERY_BEAT_SETTINGS, CELERY_SIGNATURE_METHODS

Key = tuple[str, str]


def collect(st: LinkState, tasks: dict[Key, tuple[Node, int]]) -> list[tuple[RawMessage, str | None]]:
    out: list[tuple[RawMessage, str | None]] = []
    for path in sorted(st.files):
        data = st.files[path]
        for name in data["sym"]:
            if name.rsplit(".", 1)[-1].lower() in CELERY_BEAT_SETTINGS:
                line = data.get("sln", {}).get(name, 1)
                out.extend(_publish(n, path, line) for n in _entries(st.r.symbol(path, name)))
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm":
            continue
        if c["n"] == "update":
            for key in inv.rec.get("k", ()):
                if key.lower() in CELERY_BEAT_SETTINGS:
                    out.extend(_publish(n, inv.path, inv.line) for n in _entries(inv.kw[key]))
        elif c["n"] == "add_periodic_task":
            sig = inv.arg(1, "sig")
            name = _signature_task(st, sig, tasks) if sig is not None else None
            if name:
                out.append(_publish(name, inv.path, inv.line))
    return out


def _entries(schedule: Node) -> list[str]:
    """Task names of a beat schedule dict: ``{"every-minute": {"task": "pkg.tasks.tick", ...}}``."""
    if schedule["t"] != "dict":
        return []
    names = []
    for entry in schedule["v"].values():
        name = literal(entry["v"].get("task")) if entry["t"] == "dict" else None
        if name:
            names.append(name)
    return names


def _signature_task(st: LinkState, sig: Node, tasks: dict[Key, tuple[Node, int]]) -> str | None:
    """The task of ``tick.s(...)`` / ``tick.signature(...)`` / ``signature("pkg.tick")``."""
    if sig["t"] != "ret":
        return None
    f = sig["f"]
    if f["t"] == "bm" and f["n"] in CELERY_SIGNATURE_METHODS:
        o = st.r.as_object(f["o"])
        if o["t"] == "fn" and (o["p"], o["n"]) in tasks:
            return literal(tasks[(o["p"], o["n"])][0])
    if (f["t"] == "ext" and f["q"].rsplit(".", 1)[-1] == "signature") or (
        f["t"] == "bm" and f["n"] == "signature"
    ):
        return literal(sig["a"][0]) if sig.get("a") else None
    return None


def _publish(name: str, path: str, line: int) -> tuple[RawMessage, str | None]:
    msg = RawMessage("publishes", Expr((Lit(name),)), "celery", path, line, line, client="celery-beat")
    return msg, None
