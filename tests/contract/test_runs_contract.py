"""Contract: index runs, change-surface runs, feedback, verifications and architecture runs."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.model import Evidence
from orbitkb.domain.runs import (
    ArchitectureFinding,
    ArchitectureRun,
    ChangeSurfaceRun,
    Feedback,
    IndexRun,
    SurfaceFinding,
    Verification,
)


def index_run(repo: str, started: str) -> IndexRun:
    return IndexRun(None, repo, started, backend="claude", commit="abc", files_total=10, files_changed=3,
                    files_parsed=2, services=4, llm_calls=5, input_tokens=100, output_tokens=50, cost_usd=0.125)  # fmt: skip


def surface_run(task: str) -> ChangeSurfaceRun:
    finding = SurfaceFinding(
        "payments", "primary", "charges cards", 0.8, (Evidence("pay.py", 3, 9, "abc", "route"),)
    )
    return ChangeSurfaceRun(None, task, "2024-05-02T09:00:00Z", backend="offline", hint_services=("payments",),
                            findings=(finding, SurfaceFinding("orders", "no_change_hint", "only reads", 0.1)),
                            input_tokens=7, output_tokens=None, cost_usd=None)  # fmt: skip


def test_index_runs_get_ids_and_list_newest_first(store):
    first = store.add_index_run(index_run("shop", "2024-05-01T00:00:00Z"))
    second = store.add_index_run(attrs.evolve(index_run("crm", "2024-05-02T00:00:00Z"), id=999))
    third = store.add_index_run(index_run("shop", "2024-05-03T00:00:00Z"))
    assert first < second < third and second != 999
    assert [r.id for r in store.list_index_runs()] == [third, second, first]
    assert [r.id for r in store.list_index_runs("shop")] == [third, first]
    assert [r.id for r in store.list_index_runs(limit=1)] == [third]
    assert store.list_index_runs()[2] == attrs.evolve(index_run("shop", "2024-05-01T00:00:00Z"), id=first)


def test_latest_index_status_per_repository_is_that_of_its_newest_run(store):
    assert store.latest_index_statuses() == {}
    first = store.add_index_run(attrs.evolve(index_run("shop", "2024-05-03T00:00:00Z"), status="ok"))
    store.add_index_run(attrs.evolve(index_run("crm", "2024-05-01T00:00:00Z"), status="partial"))
    newest = store.add_index_run(index_run("shop", "2024-05-02T00:00:00Z"))  # newest by id, not by date
    assert store.latest_index_statuses() == {"shop": "running", "crm": "partial"}
    store.update_index_run(attrs.evolve(index_run("shop", "t"), id=newest, status="failed"))
    store.update_index_run(attrs.evolve(index_run("shop", "t"), id=first, status="interrupted"))
    assert store.latest_index_statuses() == {"shop": "failed", "crm": "partial"}
    assert store.latest_index_statuses() == {r: runs[0].status for r in ("shop", "crm")
                                             for runs in [store.list_index_runs(r, limit=1)]}


def test_index_run_update(store):
    run_id = store.add_index_run(index_run("shop", "t0"))
    done = attrs.evolve(
        index_run("shop", "t0"), id=run_id, status="partial", finished_at="t1", notes="2 gaps"
    )
    store.update_index_run(done)
    assert store.list_index_runs() == [done]
    with pytest.raises(RunNotFound):
        store.update_index_run(attrs.evolve(done, id=run_id + 100))
    with pytest.raises(RunNotFound):
        store.update_index_run(attrs.evolve(done, id=None))


def test_change_surface_runs_round_trip(store):
    a = store.add_change_surface_run(surface_run("add pix payments"))
    b = store.add_change_surface_run(surface_run("rename sku"))
    assert store.get_change_surface_run(a) == attrs.evolve(surface_run("add pix payments"), id=a)
    assert store.get_change_surface_run(a + b + 100) is None
    assert [r.task for r in store.list_change_surface_runs()] == ["rename sku", "add pix payments"]
    assert [r.id for r in store.list_change_surface_runs(limit=1)] == [b]


def test_feedback_in_the_order_given(store):
    run = store.add_change_surface_run(surface_run("t"))
    other = store.add_change_surface_run(surface_run("u"))
    given = [Feedback(run, "payments", "confirmed", "t2"), Feedback(run, "orders", "rejected", "t1"),
             Feedback(other, "payments", "rejected", "t3")]  # fmt: skip
    for f in given:
        store.add_feedback(f)
    assert store.list_feedback() == given
    assert store.list_feedback("payments") == [given[0], given[2]]
    assert store.list_feedback("nobody") == []
    with pytest.raises(RunNotFound):
        store.add_feedback(Feedback(run + 100, "x", "confirmed", "t"))


def test_verifications_round_trip_newest_first(store):
    r1, r2 = store.add_change_surface_run(surface_run("a")), store.add_change_surface_run(surface_run("b"))
    v = Verification(None, r1, "shop", "abc", "t", predicted=("a", "b"), actual=("b", "c"), true_positives=("b",),
                     false_positives=("a",), false_negatives=("c",), unowned_files=("README.md",),
                     precision=0.5, recall=0.5)  # fmt: skip
    v1 = store.add_verification(v)
    v2 = store.add_verification(attrs.evolve(v, run_id=r2, precision=None, recall=None))
    assert [x.id for x in store.list_verifications()] == [v2, v1]
    assert store.list_verifications(r1) == [attrs.evolve(v, id=v1)]
    assert store.list_verifications(r2 + 100) == []
    with pytest.raises(RunNotFound):
        store.add_verification(attrs.evolve(v, run_id=r2 + 100))


def test_architecture_runs_most_recent_first(store):
    detail = {"cycle": ["a", "b", "a"], "weights": {"a": 1, "b": 2.5}, "note": None}
    finding = ArchitectureFinding("cycle", "warning", ("a", "b"), "a calls b calls a", detail)
    ids = [
        store.add_architecture_run(ArchitectureRun(None, f"t{i}", (finding,) if i else ())) for i in range(3)
    ]
    runs = store.list_architecture_runs()
    assert [r.id for r in runs] == [ids[2], ids[1]]
    assert runs[0].findings == (finding,)
    assert [r.id for r in store.list_architecture_runs(limit=10)] == ids[::-1]
    assert store.list_architecture_runs(limit=10)[-1].findings == ()


def test_feedback_is_one_verdict_per_run_and_service(store):
    run = store.add_change_surface_run(surface_run("t"))
    for _ in range(3):
        store.add_feedback(Feedback(run, "payments", "rejected", "t1"))
    store.add_feedback(Feedback(run, "orders", "confirmed", "t2"))
    assert store.list_feedback() == [Feedback(run, "payments", "rejected", "t1"), Feedback(run, "orders", "confirmed", "t2")]
    store.add_feedback(Feedback(run, "payments", "confirmed", "t3"))  # changed its mind: replaces, newest last
    assert store.list_feedback() == [Feedback(run, "orders", "confirmed", "t2"), Feedback(run, "payments", "confirmed", "t3")]
