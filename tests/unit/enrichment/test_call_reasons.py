"""Every static call gets a reason with an LLM backend: in the prompt of each endpoint whose
handler reaches it (the first API's answer wins), or, reached by none, in its service's unit of
calls made outside any API."""

from __future__ import annotations

from typing import Any

import attrs

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.fakes.llm import FakeLLMBackend
from orbitkb.domain.ids import make_id
from orbitkb.domain.model import CallKind, Evidence, Provenance, ServiceCall, ServiceFacts, TargetKind

from . import conftest as sys_
from .test_enrich import describing, run, subject

#: A scheduled job's call: no handler reaches it.
NIGHTLY = ServiceCall(
    make_id("call", sys_.ORDERS.id, "nightly", "inventory-service"),
    sys_.ORDERS.id,
    CallKind.HTTP,
    "inventory-service",
    TargetKind.INTERNAL,
    to_service_id=sys_.INVENTORY.id,
    method="GET",
    path="/stock",
    evidence=(Evidence("orders/jobs.py", 4, 4),),
)


def _facts() -> list[ServiceFacts]:
    shared = attrs.evolve(
        sys_.ORDERS_TO_PAYMENTS, from_api_id=None, from_api_ids=(sys_.CREATE_ORDER.id, sys_.GET_ORDER.id)
    )
    orders, *rest = sys_.facts()
    return [attrs.evolve(orders, calls=(shared, NIGHTLY)), *rest]


def test_every_static_call_gets_a_reason_shared_and_unreached_calls_included(tree: Any) -> None:
    store = InMemoryKnowledgeStore()
    sys_.load(store, _facts())
    llm = FakeLLMBackend(responder=describing)
    result = run(store, llm, tree)

    assert result.aborted is None and not result.failed
    static = [c for c in store.list_calls() if c.provenance == Provenance.DETERMINISTIC]
    assert static and all(c.reason for c in static)
    by_id = {c.id: c for c in static}
    # both endpoints were told about the shared call; the first API's answer is kept
    prompts = {subject(c.prompt): c.prompt for c in llm.calls}
    assert all("payments-service" in prompts[f"endpoint {a} of service orders-service"]
               for a in ("POST /orders", "GET /orders/{order_id}"))  # fmt: skip
    assert by_id[sys_.ORDERS_TO_PAYMENTS.id].reason == "to serve endpoint POST /orders of service orders-service"
    assert by_id[NIGHTLY.id].reason == "to serve calls of service orders-service outside its APIs"
    assert '"path": "/stock"' in prompts["calls of service orders-service outside its APIs"]


def test_a_service_whose_calls_all_belong_to_apis_gets_no_extra_unit(store: Any, tree: Any) -> None:
    llm = FakeLLMBackend(responder=describing)
    run(store, llm, tree)
    assert not [c for c in llm.calls if subject(c.prompt).startswith("calls of")]
