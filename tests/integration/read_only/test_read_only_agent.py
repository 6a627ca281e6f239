"""A read-only agent is served (issue 15): on a store that refuses its writes, the MCP tools that
record something still answer — with run_id / verification_id null and a one-line notice — and
only refresh, whose whole point is writing, is refused with a one-line error."""

from __future__ import annotations

import subprocess

from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.fakes import FakeGitReader
from orbitkb.domain.recording import READ_ONLY
from tests.integration.mcp_server.test_mcp_tools import call, data, make_server


def test_find_change_surface_answers_without_recording(read_only_store):
    server = make_server(read_only_store)
    surface = data(call(server, "find_change_surface", {"task": "Refund a card payment when an order is cancelled"}))
    assert surface["primary"] and surface["run_id"] is None
    assert READ_ONLY in surface["note"] and "run not recorded" in surface["note"]
    assert len(read_only_store.list_change_surface_runs()) == 1  # only the seeded one


def test_feedback_answers_with_the_counts_so_far_and_a_notice(read_only_store):
    answer = data(call(make_server(read_only_store), "record_change_surface_feedback",
                       {"run_id": 1, "service": "payments", "outcome": "confirmed"}))
    assert answer["notice"] == f"feedback not recorded: {READ_ONLY}"
    assert answer["history"] == {"confirmed": 0, "rejected": 0} and read_only_store.list_feedback() == []


def test_smells_are_detected_without_a_recorded_run(read_only_store):
    smells = data(call(make_server(read_only_store), "find_architecture_smells", {}))
    assert smells["run_id"] is None and smells["total"] == len(smells["findings"])
    assert READ_ONLY in smells["note"] and "trend" not in smells
    assert read_only_store.list_architecture_runs() == []


def test_every_read_tool_answers(read_only_store):
    server = make_server(read_only_store)
    for tool, args in (("list_services", {}), ("describe_service", {"service": "payments"}),
                       ("search", {"query": "refund"}), ("get_relationships", {"service": "payments"}),
                       ("list_repositories", {}), ("trace_flow", {"source": "checkout", "target": "payments"})):
        data(call(server, tool, args))
    assert data(call(server, "describe_service", {"service": "payments"}))["index_cost"]["llm_calls"] == 2


def test_refresh_is_refused_in_one_line(read_only_store):
    result = call(make_server(read_only_store), "refresh", {})
    assert result.is_error and "\n" not in result.content[0].text


def test_verify_answers_precision_and_recall_without_recording(read_only_store):
    git = FakeGitReader({"c1": {"payments/app.py": "old"}, "c2": {"payments/app.py": "new"}})
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(read_only_store))
    app.adapters.git.override(providers.Object(git))
    verified = app.use_cases.verify_change_surface()(1, "shop", "c1", record_feedback=True)
    assert verified.id is None and verified.precision == 1.0
    assert read_only_store.list_verifications() == [] and read_only_store.list_feedback() == []


def test_orbitkb_serve_read_only_says_so_on_stderr(tmp_path):
    from tests.e2e.conftest import ORBITKB

    proc = subprocess.run([ORBITKB, "serve", "--read-only", "--db", str(tmp_path / "none.db")], input="",
                          capture_output=True, text=True, timeout=60)
    assert "read-only: every tool answers" in proc.stderr and not (tmp_path / "none.db").exists()
