"""The change surface's parts are typed views, and their JSON is the published shape: the keys,
in order, that the MCP tool and ``analyze --json`` printed when these parts were dicts."""

from __future__ import annotations

import json

from orbitkb.domain.change.views import (
    ContractAtRisk,
    EntityAffected,
    Finding,
    FlowEdge,
    NextQuery,
    OutsideCall,
    SimilarTask,
    Unknown,
)
from orbitkb.domain.fakes.llm import FakeLLMBackend
from orbitkb.domain.model import Evidence
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage
from orbitkb.domain.serialization import to_data, to_json
from orbitkb.domain.usecases.change_surface import FindChangeSurface

from .seed import seeded_store

EVIDENCE_KEYS = ["file", "start_line", "end_line", "commit", "note"]
FINDING = (["service", "reason", "confidence", "evidence"],)
SHAPES = {
    "primary": FINDING,
    "secondary": FINDING,
    "no_change_hint": FINDING,
    "flow": (["from", "to", "type"], ["from", "to", "type", "channel"]),
    "external_integrations": (["service", "via_service", "reason", "confidence", "evidence"],),
    "unmapped_internal_hint": (["service", "via_service", "reason", "confidence", "evidence"],),
    "contracts_at_risk": (["contract", "kind", "producer", "consumers", "reason", "evidence"],),
    "persistence_affected": (["service", "entity", "kind", "engine", "evidence"],),
    "unknowns": (["status", "reason", "suggestion"], ["status", "service", "reason", "suggestion"]),
    "recommended_next_queries": (["tool", "arguments", "reason"],),
    "similar_past_tasks": (["run_id", "task", "similarity", "primary_services", "outcome"],),
}


def test_a_flow_edge_is_written_from_to_and_its_channel_only_when_it_has_one() -> None:
    assert to_data(FlowEdge("orders", "payments", "HTTP")) == {"from": "orders", "to": "payments", "type": "HTTP"}
    assert list(to_data(FlowEdge("a", "b", "MESSAGE_LINK", "order.created"))) == ["from", "to", "type", "channel"]


def test_an_unknown_names_its_service_second_and_only_when_it_has_one() -> None:
    assert list(to_data(Unknown("stale", "r", "s", "orders"))) == ["status", "service", "reason", "suggestion"]
    assert to_data(Unknown("unknown", "the task matches nothing", "rephrase")) == {
        "status": "unknown", "reason": "the task matches nothing", "suggestion": "rephrase"}


def test_the_other_views_are_plain_records_with_lists_and_evidence_objects() -> None:
    ev = (Evidence("a.py", 3, 4),)
    assert to_data(ContractAtRisk("POST /x", "rest", "orders", ("cart", "web"), "why", ev)) == {
        "contract": "POST /x", "kind": "rest", "producer": "orders", "consumers": ["cart", "web"], "reason": "why",
        "evidence": [{"file": "a.py", "start_line": 3, "end_line": 4, "commit": None, "note": None}]}
    assert list(to_data(OutsideCall("Stripe", "payments", "http call", 1.0, ev))) == SHAPES["external_integrations"][0]
    assert list(to_data(EntityAffected("orders", "orders", "sql_table", None, ()))) == SHAPES["persistence_affected"][0]
    assert json.loads(to_json(NextQuery("describe_api", {"service": "s", "method": "GET", "path": "/x"}, "r"))) == {
        "tool": "describe_api", "arguments": {"service": "s", "method": "GET", "path": "/x"}, "reason": "r"}


def test_a_finding_and_a_similar_task_are_written_as_the_tiers_always_were() -> None:
    ev = (Evidence("pay/charge.go", 7, 9, "abc123", "api POST /charges"),)
    assert to_data(Finding("payments", "task words [charge] match", 0.62, ev)) == {
        "service": "payments", "reason": "task words [charge] match", "confidence": 0.62,
        "evidence": [{"file": "pay/charge.go", "start_line": 7, "end_line": 9, "commit": "abc123",
                      "note": "api POST /charges"}]}
    assert to_data(Finding("catalog", "no link to the task", 0.8, ())) == {
        "service": "catalog", "reason": "no link to the task", "confidence": 0.8, "evidence": []}
    assert to_data(SimilarTask(4, "Refund a card", 0.41, ("orders", "payments"), "no feedback yet")) == {
        "run_id": 4, "task": "Refund a card", "similarity": 0.41, "primary_services": ["orders", "payments"],
        "outcome": "no feedback yet"}
    assert to_data(SimilarTask(None, "t", 0.3, (), "feedback: 1 confirmed, 0 rejected"))["primary_services"] == []


def test_the_answer_carries_typed_findings_and_similar_tasks() -> None:
    find = FindChangeSurface(seeded_store())
    find("Add Pix as a payment method in checkout")
    s = find("Add Pix payments to the checkout")
    findings = (*s.primary, *s.secondary, *s.no_change_hint)
    assert findings and all(isinstance(f, Finding) for f in findings)
    assert all(isinstance(e, Evidence) for f in findings for e in f.evidence)
    assert s.similar_past_tasks and all(isinstance(p, SimilarTask) for p in s.similar_past_tasks)
    assert s.similar_past_tasks[0].run_id == 1 and s.similar_past_tasks[0].primary_services == tuple(
        sorted(f.service for f in find("Add Pix as a payment method in checkout", record=False).primary))


def test_a_whole_answer_serialises_to_the_published_shape() -> None:
    seen: set[str] = set()
    store = seeded_store()  # one store: the last task finds the first as a similar past task
    find = FindChangeSurface(store)
    answers = [find(task) for task in ("Add Pix as a payment method in checkout", "Quantum entanglement telemetry",
                                       "Notify customers when a payment is authorized",
                                       "Add Pix payments to the checkout")]
    llm = {"primary": [{"service": "payments", "reason": "owns payment methods", "confidence": 0.9}],
           "secondary": [{"service": "checkout", "reason": "shows the option", "confidence": 0.6}],
           "no_change_hint": [{"service": "catalog", "reason": "lists products", "confidence": 0.8}]}
    backend = FakeLLMBackend([LlmResult(llm, LlmUsage(100, 20, 0.01))])
    answers.append(FindChangeSurface(store, backend=backend)("Add Pix as a payment method in checkout"))
    for answer in answers:
        data = to_data(answer)
        json.dumps(data)  # plain JSON all the way down
        for key, shapes in SHAPES.items():
            for item in data[key]:
                assert list(item) in [list(s) for s in shapes], (key, item)
                for ev in item.get("evidence", ()):
                    assert list(ev) == EVIDENCE_KEYS
                seen.add(key)
    assert seen == set(SHAPES)
