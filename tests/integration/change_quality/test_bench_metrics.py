"""The benchmark's own arithmetic: scoring, calibration buckets, the bm25 baseline, the task
corpus file and the replay history (each edit applies exactly once, in order)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks.changebench.baseline import Bm25, owner, service_texts
from benchmarks.changebench.corpus import load_tasks, named_services, system_paths
from benchmarks.changebench.history import HISTORY, Commit, Edit
from benchmarks.changebench.metrics import calibration, macro, score
from benchmarks.changebench.replay import apply, build_history, files_at
from orbitkb.domain.model import Service


def test_score_counts_hits_misses_and_extras() -> None:
    s = score(["orders", "payments", "cart"], ["orders", "inventory"])
    assert (s.precision, s.recall) == (round(1 / 3, 4), 0.5)
    assert s.fp == ("cart", "payments") and s.fn == ("inventory",)
    assert s.f1 == pytest.approx(0.4, abs=1e-3)


def test_an_empty_answer_is_not_precise() -> None:
    s = score([], ["orders"])
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)
    assert macro([s, score(["a"], ["a"])])["exact"] == 0.5


def test_calibration_buckets_include_the_upper_edge() -> None:
    cal = calibration([(0.1, False), (0.15, True), (0.85, True), (1.0, True), (0.9, False)])
    by = {b["bucket"]: b for b in cal["buckets"]}
    assert by["0.0-0.2"]["n"] == 2 and by["0.0-0.2"]["observed"] == 0.5
    assert by["0.8-1.0"]["n"] == 3 and by["0.8-1.0"]["observed"] == pytest.approx(2 / 3, abs=1e-3)
    assert by["0.4-0.6"]["observed"] is None
    assert 0 < cal["ece"] < 1


def test_bm25_ranks_the_service_whose_files_use_the_words() -> None:
    roots = {"cart": "cart-service", "orders": "orders", "root": "."}
    files = [
        ("cart-service/src/basket.js", b"function addToBasket(basketId) { basket.items.push() }"),
        ("orders/Order.java", b"class Order { long totalCents; }"),
        ("cart-service/logo.png", b"\x89PNG\0\0binary basket basket"),
        ("README.md", b"order basket"),
    ]
    texts = service_texts(files, roots)
    assert "logo" not in texts["cart"] and "README" in texts["root"]
    bm = Bm25(texts)
    assert bm.top("put an item in the basket", 1) == ["cart"]
    assert bm.top("order total", 1) == ["orders"]
    assert bm.top("zebra", 3) == []
    assert owner("orders/x", roots) == "orders" and owner("docs/x", roots) == "root"


def test_named_services_uses_names_and_aliases_not_substrings() -> None:
    svcs = [
        Service("s1", "notifications", "r", "notifier", "go", aliases=("notifier",)),
        Service("s2", "api-gateway", "r", "gateway", "jvm", aliases=("gateway",)),
        Service("s3", "payments", "r", "payments", "node"),
    ]
    assert named_services("Route the notifier through the gateway", svcs) == ["api-gateway", "notifications"]
    assert named_services("Let shoppers pay by bank slip", svcs) == []
    assert named_services("Mark a payment as failed", svcs) == ["payments"]


def test_the_task_file_is_well_formed() -> None:
    tasks = load_tasks()
    assert len({t.id for t in tasks}) == len(tasks) >= 40
    known = {
        "api-gateway",
        "catalog",
        "accounts",
        "backoffice",
        "cart",
        "payments",
        "orders",
        "shipping",
        "inventory",
        "notifications",
    }
    assert all(t.expected and set(t.expected) <= known for t in tasks if t.system == "shopfront")
    assert all(p.is_dir() for p in system_paths().values())


def test_every_history_edit_applies_once_and_the_diff_is_committed(tmp_path: Path) -> None:
    commits = build_history(system_paths()["shopfront"], tmp_path / "repo")
    assert len(commits) == len(HISTORY) >= 10
    parent, sha, message = commits[0]
    assert message == HISTORY[0].message and parent != sha
    before = dict(files_at(tmp_path / "repo", parent))
    after = dict(files_at(tmp_path / "repo", sha))
    assert before["cart-service/src/store/redis.js"] != after["cart-service/src/store/redis.js"]
    assert "ground_truth.json" not in after


def test_an_edit_that_does_not_match_is_refused(tmp_path: Path) -> None:
    shutil.copytree(system_paths()["shopfront"] / "cart-service", tmp_path / "cart-service")
    bad = Commit("broken", (Edit("cart-service/src/store/redis.js", "no such text", "x"),))
    with pytest.raises(ValueError, match="expected one occurrence"):
        apply(tmp_path, bad)


def test_synthetic_tasks_follow_what_the_generator_planted(tmp_path: Path) -> None:
    from benchmarks.changebench.synthetic import _resource, generate, tasks_from_expected

    doc = generate(tmp_path / "syn")
    tasks = tasks_from_expected(doc)
    kinds = {t.id.split("-")[1] for t in tasks}
    assert {"act", "list", "contract", "event"} <= kinds and len(tasks) >= 12
    served = {(a["service"], *_resource(a["path"])) for a in doc["apis"] if a["kind"] == "http"}
    for t in tasks:
        if t.id.startswith("syn-list-"):
            res = t.id.removeprefix("syn-list-")
            owners = {s for s, r, _ in served if r == res} | {
                e["service"] for e in doc["entities"] if e["name"] == res
            }
            assert owners == set(t.expected), t
        if t.id.startswith("syn-event-"):
            sites = {c["service"] for c in doc["channels"] if c["channel"] == t.id.removeprefix("syn-event-")}
            assert sites == set(t.expected) and len(sites) >= 2, t
        if t.id.startswith("syn-contract-"):
            assert len(t.expected) >= 2 and "reason code" in t.task
