"""Trend across three runs."""

from __future__ import annotations

from orbitkb.domain.architecture.trend import compare
from orbitkb.domain.runs import ArchitectureFinding as F
from orbitkb.domain.runs import ArchitectureRun


def test_trend_across_three_runs() -> None:
    r1 = ArchitectureRun(1, "t1", (F("cycle", "warning", ("a", "b"), "x"), F("fan_in", "info", ("p",), "x", {"count": 4})))
    r2 = ArchitectureRun(2, "t2", (F("fan_in", "info", ("p",), "x", {"count": 5}),
                                   F("shared_database", "warning", ("c", "d"), "x", {"entity": "o"})))
    r3 = ArchitectureRun(3, "t3", (F("fan_in", "info", ("p",), "x", {"count": 5}),
                                   F("shared_database", "warning", ("c", "d"), "x", {"entity": "o"})))
    t12 = compare(r2, r1)
    assert [(f.kind, f.services) for f in t12.new_findings] == [("shared_database", ("c", "d"))]
    assert [(f.kind, f.services) for f in t12.resolved_findings] == [("cycle", ("a", "b"))]
    assert [(d.kind, d.previous_count, d.current_count) for d in t12.count_deltas] == [("fan_in", 4, 5)]
    t23 = compare(r3, r2)
    assert t23.new_findings == () and t23.resolved_findings == () and t23.count_deltas == ()
    assert t23.previous_run_id == 2
