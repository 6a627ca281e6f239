"""The change surface's published JSON on the example system, pinned: ``analyze --json`` (the same
``to_data`` the MCP tool and the UI answer with) writes every finding and similar past task with the
keys, in order, and the value types it has always had — whatever type the domain carries them in."""

from __future__ import annotations

import contextlib
import io
import json
import re
from typing import Any

import pytest

from benchmarks.changebench.corpus import system_paths
from orbitkb.cli.main import main

TIERS = ("primary", "secondary", "no_change_hint")
FINDING = {"service": str, "reason": str, "confidence": float, "evidence": list}
EVIDENCE = {"file": str, "start_line": int, "end_line": int, "commit": (str, type(None)), "note": (str, type(None))}
SIMILAR = {"run_id": int, "task": str, "similarity": float, "primary_services": list, "outcome": str}
TOP = ["task", "primary", "secondary", "no_change_hint", "flow", "external_integrations", "unmapped_internal_hint",
       "contracts_at_risk", "persistence_affected", "unknowns", "freshness", "recommended_next_queries",
       "similar_past_tasks", "run_id", "run_cost_usd", "retrieval", "classified_by", "note"]
TASKS = ("Let customers pay with Pix at checkout", "Keep abandoned baskets for 30 days instead of a week",
         "Let customers pay with a gift card at checkout")


def _typed(item: dict[str, Any], shape: dict[str, Any]) -> bool:
    return list(item) == list(shape) and all(isinstance(item[k], t) for k, t in shape.items())


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], str]]:
    db = str(tmp_path_factory.mktemp("json") / "kb.db")
    assert main(["index", str(system_paths()["shopfront"]), "--db", db, "--backend", "offline"]) == 0

    def analyze(task: str, *flags: str) -> str:
        stdout = io.StringIO()
        with contextlib.redirect_stdout(stdout):
            assert main(["analyze", task, "--db", db, "--backend", "offline", *flags]) == 0
        return stdout.getvalue()

    as_json = [json.loads(analyze(task, "--json")) for task in TASKS]  # runs 1-3
    return list(zip(as_json, [analyze(task) for task in TASKS]))


def test_every_finding_keeps_its_keys_order_and_types(answers: list[tuple[dict[str, Any], str]]) -> None:
    findings = [f for data, _ in answers for tier in TIERS for f in data[tier]]
    assert any(f["evidence"] for f in findings)
    assert {t for data, _ in answers for t in TIERS if data[t]} >= {"primary", "secondary"}
    for data, _ in answers:
        assert list(data) == TOP
    for f in findings:
        assert _typed(f, FINDING), f
        assert 0 <= f["confidence"] <= 1
        for ev in f["evidence"]:
            assert _typed(ev, EVIDENCE), ev


def test_similar_past_tasks_keep_their_keys_order_and_types(answers: list[tuple[dict[str, Any], str]]) -> None:
    similar = answers[-1][0]["similar_past_tasks"]
    assert similar, "the gift-card task reads like the Pix one asked before it"
    first = answers[0][0]
    pix = next(s for s in similar if s["task"] == TASKS[0])
    assert _typed(pix, SIMILAR)
    assert pix["run_id"] == first["run_id"] and pix["outcome"] == "no feedback yet"
    assert pix["primary_services"] == sorted(f["service"] for f in first["primary"])
    assert all(isinstance(s, str) for s in pix["primary_services"])


def test_the_text_answer_prints_one_line_per_finding_and_similar_task(
        answers: list[tuple[dict[str, Any], str]]) -> None:
    for data, text in answers:
        for title, tier in (("primary", "primary"), ("secondary", "secondary"), ("no change expected", "no_change_hint")):
            assert (f"{title}:\n" in text) == bool(data[tier])
            for f in data[tier]:
                assert f"  {f['service']:<24} {f['confidence']:.2f}  {f['reason']}\n" in text
        for c in data["contracts_at_risk"]:  # the producer serves it, the consumers call it: never an arrow to misread
            assert f"contract at risk: {c['contract']}, served by {c['producer']}, called by {', '.join(c['consumers'])}\n" in text
    assert any(data["contracts_at_risk"] for data, _ in answers)
    similar = [line for line in answers[-1][1].splitlines() if line.startswith("similar: ")]
    assert similar and all(re.fullmatch(r"similar: run #\d+ '.+' \(0\.\d+\) — no feedback yet", s) for s in similar)
