"""The change surface's parts are typed views, and their JSON is the published shape: the keys,
in order, that the MCP tool and ``analyze --json`` printed when these parts were dicts."""

from __future__ import annotations

import json

from orbitkb.domain.change.views import (
    ContractAtRisk,
    EntityAffected,
    FlowEdge,
    NextQuery,
    OutsideCall,
    Unknown,
)
from orbitkb.domain.model import Evidence
from orbitkb.domain.serialization import to_data, to_json
from orbitkb.domain.usecases.change_surface import FindChangeSurface

from .seed import seeded_store

EVIDENCE_KEYS = ["file", "start_line", "end_line", "commit", "note"]
SHAPES = {
    "flow": (["from", "to", "type"], ["from", "to", "type", "channel"]),
    "external_integrations": (["service", "via_service", "reason", "confidence", "evidence"],),
    "unmapped_internal_hint": (["service", "via_service", "reason", "confidence", "evidence"],),
    "contracts_at_risk": (["contract", "kind", "producer", "consumers", "reason", "evidence"],),
    "persistence_affected": (["service", "entity", "kind", "engine", "evidence"],),
    "unknowns": (["status", "reason", "suggestion"], ["status", "service", "reason", "suggestion"]),
    "recommended_next_queries": (["tool", "arguments", "reason"],),
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


def test_a_whole_answer_serialises_to_the_published_shape() -> None:
    seen: set[str] = set()
    for task in ("Add Pix as a payment method in checkout", "Quantum entanglement telemetry",
                 "Notify customers when a payment is authorized"):
        data = to_data(FindChangeSurface(seeded_store())(task))
        json.dumps(data)  # plain JSON all the way down
        for key, shapes in SHAPES.items():
            for item in data[key]:
                assert list(item) in [list(s) for s in shapes], (key, item)
                for ev in item.get("evidence", ()):
                    assert list(ev) == EVIDENCE_KEYS
                seen.add(key)
    assert seen >= {"flow", "external_integrations", "unmapped_internal_hint", "contracts_at_risk",
                    "persistence_affected", "unknowns", "recommended_next_queries"}
