"""`orbitkb status SERVICE` scopes the LLM index cost to that service (issue 13): each index run
records what the LLM spent describing each service, and status sums only the service's share.
``claude`` is faked with pytest-subprocess: every call answers a minimal valid instance of the
schema it was given, with a usage that grows with the prompt (never run for real)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from orbitkb.cli.main import main
from orbitkb.domain.fakes.llm import synthesize
from orbitkb.sqlite import SqliteKnowledgeStore

APP = "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"


def service(root: Path, name: str, routes: list[str]) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "1"\ndependencies = ["fastapi"]\n')
    handlers = "".join(f'@app.get("{r}")\ndef h{i}():\n    return {{}}\n\n\n' for i, r in enumerate(routes))
    (folder / "main.py").write_text(APP + handlers)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    service(root, "ledger", ["/entries", "/entries/{id}", "/balances", "/closing"])  # 4 endpoints: costs more
    service(root, "mailer", ["/send"])
    return root


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fp: Any) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text("#!/bin/sh\nexit 99\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    fp.allow_unregistered(True)  # git runs for real

    def answer(process: Any) -> None:
        schema = json.loads(process.args[process.args.index("--json-schema") + 1])
        envelope = {"type": "result", "subtype": "success", "is_error": False, "result": "",
                    "structured_output": synthesize(schema), "total_cost_usd": 0.25,
                    "usage": {"input_tokens": 1000, "output_tokens": 100}}
        process.stdout = process._prepare_buffer(json.dumps(envelope).encode())

    fp.register([str(exe), fp.any()], callback=answer)
    fp.keep_last_process(True)
    return str(exe)


def run(*argv: str) -> int:
    return main([*argv, "--db", os.environ["KB"]])


@pytest.fixture(autouse=True)
def kb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KB", str(tmp_path / "kb.db"))
    return tmp_path / "kb.db"


def test_status_of_a_service_counts_only_what_describing_it_cost(repo, claude, kb, capsys):
    assert run("index", str(repo), "--backend", "claude", "--embedder", "off", "--jobs", "1") == 0
    with SqliteKnowledgeStore(str(kb), read_only=True) as store:
        (index_run,) = store.list_index_runs()
        costs = {c.service: c for c in store.list_index_costs()}
    assert set(costs) == {"ledger", "mailer"}
    assert sum(c.llm_calls for c in costs.values()) == index_run.llm_calls  # the split adds up to the run
    assert costs["ledger"].llm_calls > costs["mailer"].llm_calls > 0
    assert costs["ledger"].cost_usd == pytest.approx(0.25 * costs["ledger"].llm_calls)
    assert costs["mailer"].input_tokens == 1000 * costs["mailer"].llm_calls
    capsys.readouterr()

    assert run("status", "mailer", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert report["totals"]["cost_usd"] == pytest.approx(costs["mailer"].cost_usd)
    assert report["totals"]["input_tokens"] == costs["mailer"].input_tokens
    assert [c["service"] for c in report["service_costs"]] == ["mailer"]
    assert report["unattributed_runs"] == 0

    assert run("status", "mailer") == 0
    out = capsys.readouterr().out
    m = costs["mailer"]
    assert f"llm_calls={m.llm_calls} tokens=(in={m.input_tokens},out={m.output_tokens})" in out
    assert f"[repository: llm_calls={index_run.llm_calls} cost_usd={index_run.cost_usd:.4f}]" in out
    assert f"cumulative usage of mailer: input_tokens={m.input_tokens}" in out

    assert run("status", "--json") == 0  # unscoped: the whole repository, as before
    assert json.loads(capsys.readouterr().out)["totals"]["cost_usd"] == pytest.approx(index_run.cost_usd)


def test_an_unchanged_re_index_costs_nothing_and_adds_no_service_cost(repo, claude, kb, capsys):
    assert run("index", str(repo), "--backend", "claude", "--embedder", "off", "--jobs", "1") == 0
    assert run("index", str(repo), "--backend", "claude", "--embedder", "off", "--jobs", "1") == 0
    with SqliteKnowledgeStore(str(kb), read_only=True) as store:
        latest, first = store.list_index_runs()
        assert latest.llm_calls == 0 and first.llm_calls > 0
        assert {c.run_id for c in store.list_index_costs()} == {first.id}
    capsys.readouterr()
    assert run("status", "ledger", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert len(report["service_costs"]) == 1 and report["totals"]["cost_usd"] > 0


def test_offline_runs_record_no_cost_and_status_says_none(repo, kb, capsys):
    assert run("index", str(repo), "--backend", "offline", "--embedder", "off") == 0
    with SqliteKnowledgeStore(str(kb), read_only=True) as store:
        assert store.list_index_costs() == []
    capsys.readouterr()
    assert run("status", "ledger") == 0
    out = capsys.readouterr().out
    assert "cumulative usage of ledger: input_tokens=None output_tokens=None cost_usd=None" in out
    assert "not split by service" not in out
