"""Trend between two architecture runs: new and resolved findings by (kind, services) identity,
and count deltas for fan-in/fan-out findings present in both."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun


@frozen
class FindingRef:
    kind: str
    services: tuple[str, ...]
    detail: dict[str, object]


@frozen
class CountDelta:
    kind: str
    services: tuple[str, ...]
    previous_count: int
    current_count: int


@frozen
class Trend:
    previous_run_id: int | None
    new_findings: tuple[FindingRef, ...]
    resolved_findings: tuple[FindingRef, ...]
    count_deltas: tuple[CountDelta, ...]


def _key(f: ArchitectureFinding) -> tuple[str, tuple[str, ...]]:
    return (f.kind, tuple(f.services))


def compare(current: ArchitectureRun, previous: ArchitectureRun) -> Trend:
    cur = {_key(f): f for f in current.findings}
    prev = {_key(f): f for f in previous.findings}
    new = [FindingRef(f.kind, f.services, dict(f.detail)) for k, f in sorted(cur.items()) if k not in prev]
    gone = [FindingRef(f.kind, f.services, dict(f.detail)) for k, f in sorted(prev.items()) if k not in cur]
    deltas = []
    for k in sorted(cur.keys() & prev.keys()):
        if k[0] in ("fan_in", "fan_out"):
            a, b = prev[k].detail.get("count"), cur[k].detail.get("count")
            if isinstance(a, int) and isinstance(b, int) and a != b:
                deltas.append(CountDelta(k[0], k[1], a, b))
    return Trend(previous.id, tuple(new), tuple(gone), tuple(deltas))
