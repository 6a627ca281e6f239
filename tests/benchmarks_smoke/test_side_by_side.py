"""benchmarks/side_by_side.py without the reference system: it says how to install it and exits 0
(nothing in the suite needs the reference), never mistakes our own console script for it, and
hands each server the arguments in its own names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "side_by_side.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ORBITKB_REFERENCE"}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)


@pytest.mark.parametrize("reference", [None, "/nowhere/bin/orbitkb", str(Path(sys.executable).parent / "orbitkb")])
def test_without_the_reference_it_skips_with_the_way_to_install_it(reference: str | None) -> None:
    proc = _run(*(["--reference", reference] if reference else []))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("skipped: the reference orbitkb is not installed")
    assert "pip install orbitkb==2.87" in proc.stdout


def test_each_server_gets_the_arguments_in_its_own_names() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import side_by_side
    finally:
        sys.path.remove(str(SCRIPT.parent))
    ends = {"source": "cart", "target": "payments"}
    assert side_by_side.arguments_for("trace_flow", ends, {"source", "target", "max_hops"}, "ours") == ends
    assert side_by_side.arguments_for("trace_flow", ends, {"from_service", "to_service"}, "reference") == {
        "from_service": "cart", "to_service": "payments"}
    # a parameter the server does not declare is left out rather than sent and refused
    assert side_by_side.arguments_for("search", {"query": "refund", "limit": 20}, {"query", "repository"},
                                      "reference") == {"query": "refund"}


def test_each_run_serves_copies_so_what_a_server_records_never_reaches_the_next_run(tmp_path: Path) -> None:
    import sqlite3

    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import side_by_side
    finally:
        sys.path.remove(str(SCRIPT.parent))
    pristine = tmp_path / "ours.pristine.db"
    writer = sqlite3.connect(pristine)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE runs (task TEXT)")
    writer.execute("INSERT INTO runs VALUES ('indexed')")
    writer.commit()  # still in the write-ahead log while this connection stays open
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    for _ in range(2):  # two runs of the benchmark, each recording a run in what it serves
        served = side_by_side.serving_copies({"ours": pristine}, scratch)["ours"]
        assert served != pristine and served.parent == scratch
        with sqlite3.connect(served) as db:
            assert db.execute("SELECT task FROM runs").fetchall() == [("indexed",)]
            db.execute("INSERT INTO runs VALUES ('a change surface')")
    writer.close()
    with sqlite3.connect(pristine) as db:
        assert db.execute("SELECT task FROM runs").fetchall() == [("indexed",)]


def _script():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import side_by_side
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return side_by_side


SERVICES = [{"name": "orders", "root_dir": "services/orders-service"}, {"name": "cart", "root_dir": "apps/cart"},
            {"name": "ledger", "root_dir": "services/ledger-service"}]


def test_each_server_is_asked_about_the_same_services_in_its_own_names() -> None:
    sbs = _script()
    theirs = sbs.own_names(["orders-service", "cart", "billing"], SERVICES)  # by folder, by the same name
    assert theirs == {"orders": "orders-service", "cart": "cart"}  # ledger: not listed there
    assert sbs.in_own_names({"service": "orders", "limit": 50}, theirs) == {"service": "orders-service", "limit": 50}
    assert sbs.in_own_names({"source": "cart", "target": "orders"}, theirs) == {"source": "cart",
                                                                                 "target": "orders-service"}
    # a call naming a service one server does not list is left out rather than answered "unknown service"
    assert sbs.in_own_names({"service": "ledger"}, theirs) is None
    assert sbs.in_own_names({"source": "cart", "target": "ledger"}, theirs) is None
    assert sbs.in_own_names({"query": "refund"}, theirs) == {"query": "refund"}
    assert sbs.in_own_names({"service": "ledger"}, None) == {"service": "ledger"}  # no names read: as given


def test_describe_api_asks_each_server_for_an_api_it_knows_at_the_same_place() -> None:
    sbs = _script()
    ours = [("GET", "/v1/orders"), ("POST", "/v1/orders"), ("GET", "/v1/orders/{id}")]
    asked = {"service": "orders-service", "method": "GET", "path": "/v1/orders/{id}"}
    assert sbs.same_place(asked, ours, [("GET", "/"), ("POST", "/")]) == {**asked, "path": "/"}  # place 2 wraps to 0
    assert sbs.same_place(asked, ours, [("GET", "/v1/orders/{id}")]) == asked  # known as it is: kept
    assert sbs.same_place(asked, ours, []) is None  # no API there: not asked


def test_an_error_answer_counts_as_an_error_whichever_way_the_server_says_it() -> None:
    from types import SimpleNamespace

    sbs = _script()

    def result(text: str, is_error: bool = False) -> SimpleNamespace:
        return SimpleNamespace(content=[SimpleNamespace(type="text", text=text)], is_error=is_error)

    assert sbs.refused(result('{\n  "error": "unknown service: orders"\n}'))
    assert sbs.refused(result("service not found. Hint: orders-service", is_error=True))
    assert not sbs.refused(result('{"services": [{"name": "orders", "error_rate": 0}]}'))
    assert not sbs.refused(result("plain words"))
    assert sbs.answer_of(result('{"apis": []}')) == {"apis": []} and sbs.answer_of(result("plain")) is None


def test_a_servers_cpu_is_never_negative_when_a_thread_ends_during_a_call() -> None:
    sbs = _script()
    before = {"100": 1.0, "101": 0.5}  # 101 ends during the call, 102 starts and spends 0.25 s
    after = {"100": 1.25, "102": 0.25}
    assert sbs.cpu_spent(before, after) == 0.5
    assert sbs.cpu_spent(after, after) == 0.0
    mine = sbs.thread_cpu(os.getpid())
    assert mine and all(seconds >= 0 for seconds in mine.values())
    assert sbs.thread_cpu(None) == {}
