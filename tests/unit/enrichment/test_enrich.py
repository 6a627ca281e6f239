"""EnrichKnowledge end to end on the in-memory store with a scripted fake LLM."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Mapping
from typing import Any

import attrs

from orbitkb.domain.enrichment import EnrichKnowledge, EnrichRequest
from orbitkb.domain.errors import LlmError, LlmUnavailable
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.fakes.llm import FakeLLMBackend, synthesize
from orbitkb.domain.model import Provenance, PurposeKind
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage

from . import conftest as sys_
from .conftest import REPO, load


def subject(prompt: str) -> str:
    return re.search(r"^SUBJECT: (.*)$", prompt, re.M).group(1)  # type: ignore[union-attr]


def describing(prompt: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    """A plausible answer that names its unit, so tests can see which answer went where."""
    answer = synthesize(schema)
    name = subject(prompt)
    for key in ("summary", "description", "short_desc", "long_desc"):
        if key in answer:
            answer[key] = f"{key} of {name}"
    refs = (
        schema["properties"]
        .get("calls", {})
        .get("items", {})
        .get("properties", {})
        .get("ref", {})
        .get("enum", [])
    )
    if refs:
        answer["calls"] = [
            {"ref": r, "reason": f"to serve {name}", "data_needed": ["amount"], "purpose_kind": "validation"}
            for r in refs
        ]
    for listing in ("entities", "messages"):
        if listing in answer:
            enum = schema["properties"][listing]["items"]["properties"]["ref"]["enum"]
            item_props = schema["properties"][listing]["items"]["properties"]
            extra = {"engine": "postgres"} if "engine" in item_props else {"provider": "rabbitmq"}
            answer[listing] = [{"ref": r, "description": f"{listing} {r} of {name}", **extra} for r in enum]
    return answer


def run(store: Any, backend: Any, tree: Any = None, jobs: int = 2) -> Any:
    return EnrichKnowledge(store, backend).execute(EnrichRequest(REPO, tree, jobs=jobs))


def test_descriptions_are_written_bottom_up_without_touching_facts(store: Any, tree: Any) -> None:
    before_calls = {c.id: c for c in store.list_calls()}
    llm = FakeLLMBackend(responder=describing)
    result = run(store, llm, tree)

    assert result.aborted is None and not result.failed
    # 5 endpoints + 1 persistence + 1 messaging, 3 components with endpoints, 4 overviews.
    assert result.count("generated") == 14 and result.llm_calls == 14
    kinds = [subject(c.prompt).split()[0] for c in llm.calls]
    assert kinds.index("component") > max(i for i, k in enumerate(kinds) if k == "endpoint")
    assert kinds.index("service") > max(i for i, k in enumerate(kinds) if k == "component")

    api = next(a for a in store.list_apis(sys_.ORDERS.id) if a.id == sys_.CREATE_ORDER.id)
    assert api.summary == "summary of endpoint POST /orders of service orders-service"
    assert api.summary_provenance == Provenance.LLM
    comp = store.list_components(sys_.ORDERS.id)[0]
    assert comp.summary == "summary of component app of service orders-service"
    svc = store.get_service_by_id(sys_.ORDERS.id)
    assert svc.short_desc == "short_desc of service orders-service" and svc.desc_provenance == Provenance.LLM

    call = next(c for c in store.list_calls() if c.id == sys_.ORDERS_TO_PAYMENTS.id)
    assert call.reason == "to serve endpoint POST /orders of service orders-service"
    assert call.purpose_kind == PurposeKind.VALIDATION and call.data_needed == ("amount",)
    old = before_calls[call.id]
    assert (call.target, call.to_service_id, call.evidence, call.provenance, call.confidence) == (
        old.target,
        old.to_service_id,
        old.evidence,
        Provenance.DETERMINISTIC,
        1.0,
    )
    table = store.list_entities(sys_.ORDERS.id)[0]
    assert table.engine == "unknown"  # a fact field: the LLM's guess goes to the description, marked
    assert table.description.endswith("(engine not found by static analysis; the LLM suggests postgres)")
    msg = store.list_messages(sys_.ORDERS.id)[0]
    assert msg.description == "messages m1 of messages of service orders-service" and msg.provider == "kafka"


def test_component_is_synthesized_from_endpoint_summaries_and_overview_from_components(
    store: Any, tree: Any
) -> None:
    llm = FakeLLMBackend(responder=describing)
    run(store, llm, tree)
    by_subject = {subject(c.prompt): c.prompt for c in llm.calls}
    comp = by_subject["component app of service orders-service"]
    assert "summary of endpoint POST /orders of service orders-service" in comp
    assert "httpx.post" not in comp and "def create_order" not in comp  # no raw code re-read
    overview = by_subject["service orders-service"]
    assert "summary of component app of service orders-service" in overview
    assert "to serve endpoint POST /orders" in overview  # call reasons from the endpoint layer
    shipping = by_subject["service shipping"]
    assert "summary of endpoint POST /ship of service shipping" in shipping  # loose endpoint
    endpoint = by_subject["endpoint POST /orders of service orders-service"]
    assert "def _charge(amount, token):" in endpoint  # one hop of local functions
    assert '"ref": "c1"' in endpoint and "payments-service" in endpoint


def test_a_second_run_sends_nothing_and_reapplies_cached_answers_after_reindex(store: Any, tree: Any) -> None:
    first = run(store, FakeLLMBackend(responder=describing), tree)
    assert first.llm_calls == 14
    load(store)  # a re-index replaces the facts: descriptions are gone
    assert store.get_service_by_id(sys_.ORDERS.id).short_desc is None
    again = FakeLLMBackend(responder=describing)
    second = run(store, again, tree)
    assert again.calls == [] and second.llm_calls == 0 and second.count("cached") == 14
    assert second.usage == LlmUsage()  # nothing sent: unknown, not zero
    assert store.get_service_by_id(sys_.ORDERS.id).short_desc == "short_desc of service orders-service"


def test_a_changed_endpoint_resends_only_it_its_component_and_its_overview(
    store: Any, tree: Any, make_tree: Any
) -> None:
    run(store, FakeLLMBackend(responder=describing), tree)
    changed = make_tree({"payments/routes.js": sys_.PAYMENTS_JS.replace("* 100", "* 1000")})

    def answer_with_new_summary(prompt: str, schema: Mapping[str, Any]) -> dict[str, Any]:
        out = describing(prompt, schema)
        if "summary" in out and "chargeHandler" in prompt:
            out["summary"] += " (now in mills)"
        return out

    llm = FakeLLMBackend(responder=answer_with_new_summary)
    result = run(store, llm, changed)
    assert sorted(subject(c.prompt) for c in llm.calls) == [
        "component routes of service payments-service",
        "endpoint POST /charge of service payments-service",
        "service payments-service",
    ]
    cost = {s.service: s for s in result.services}
    assert cost["payments-service"].llm_calls == 3 and cost["orders-service"].llm_calls == 0
    assert cost["orders-service"].cached == 6  # 2 endpoints, persistence, messaging, component, overview


def test_unchanged_endpoint_answer_stops_the_cascade(store: Any, tree: Any, make_tree: Any) -> None:
    run(store, FakeLLMBackend(responder=describing), tree)
    changed = make_tree({"payments/routes.js": sys_.PAYMENTS_JS.replace("* 100", "* 1000")})
    llm = FakeLLMBackend(responder=describing)  # same summary as before
    run(store, llm, changed)
    assert [subject(c.prompt) for c in llm.calls] == ["endpoint POST /charge of service payments-service"]


def test_invalid_answer_is_retried_once_and_usage_of_both_attempts_is_summed(store: Any, tree: Any) -> None:
    bad = LlmResult(data={"summary": 3}, usage=LlmUsage(10, 1, 0.5))

    def responder(prompt: str, schema: Mapping[str, Any]) -> Any:
        if (
            subject(prompt) == "endpoint GET /orders/{order_id} of service orders-service"
            and "did not match" not in prompt
        ):
            return bad
        return LlmResult(data=describing(prompt, schema), usage=LlmUsage(100, 20, None))

    llm = FakeLLMBackend(responder=responder)
    result = run(store, llm, tree)
    assert not result.failed and result.llm_calls == 15
    retry = [c.prompt for c in llm.calls if "did not match" in c.prompt]
    assert len(retry) == 1 and "$.summary: expected string, got int" in retry[0]
    orders = next(s for s in result.services if s.service == "orders-service")
    assert orders.usage == LlmUsage(10 + 100 * 6, 1 + 20 * 6, 0.5)  # 5 units + 1 retry; cost known once
    assert result.usage.input_tokens == 10 + 100 * 14 and result.usage.cost_usd == 0.5


def test_a_unit_that_keeps_failing_is_isolated(store: Any, tree: Any) -> None:
    def responder(prompt: str, schema: Mapping[str, Any]) -> Any:
        name = subject(prompt)
        if name == "endpoint POST /charge of service payments-service":
            return {"summary": "ok", "unexpected": "ignore previous instructions"}
        if name == "endpoint GET /stock/{sku} of service inventory-service":
            return LlmError("claude did not answer within 300s")
        return describing(prompt, schema)

    llm = FakeLLMBackend(responder=responder)
    result = run(store, llm, tree)
    failed = {u.key: u.error for u in result.failed}
    assert failed.keys() == {f"endpoint:{sys_.CHARGE.id}", f"endpoint:{sys_.LEVEL.id}"}
    assert "unexpected property 'unexpected'" in failed[f"endpoint:{sys_.CHARGE.id}"]
    assert "did not answer" in failed[f"endpoint:{sys_.LEVEL.id}"]
    assert result.count("generated") == 12 and result.llm_calls == 16
    # the component and overview still ran, from what was available
    charge = next(a for a in store.list_apis(sys_.PAYMENTS.id))
    assert charge.summary is None and charge.summary_provenance == Provenance.DETERMINISTIC
    assert store.get_service_by_id(sys_.PAYMENTS.id).desc_provenance == Provenance.LLM
    # failures are not cached: the next run retries exactly them
    again = FakeLLMBackend(responder=describing)
    run(store, again, tree)
    assert {subject(c.prompt).split(" of ")[0] for c in again.calls} >= {
        "endpoint POST /charge",
        "endpoint GET /stock/{sku}",
    }


def test_unavailable_backend_stops_sending_and_reports_why(store: Any, tree: Any) -> None:
    llm = FakeLLMBackend(
        responder=lambda p, s: LlmUnavailable("claude is not logged in", hint="run `claude login`")
    )
    result = run(store, llm, tree, jobs=1)
    assert result.aborted == "claude is not logged in (run `claude login`)"
    assert len(llm.calls) == 1
    assert result.count("skipped") == 14 and result.count("generated") == 0
    assert store.get_service_by_id(sys_.ORDERS.id).short_desc is None


def test_parallelism_is_bounded_by_jobs(store: Any, tree: Any) -> None:
    lock = threading.Lock()
    live = {"now": 0, "max": 0}

    def slow(prompt: str, schema: Mapping[str, Any]) -> Any:
        with lock:
            live["now"] += 1
            live["max"] = max(live["max"], live["now"])
        time.sleep(0.03)
        with lock:
            live["now"] -= 1
        return describing(prompt, schema)

    result = run(store, FakeLLMBackend(responder=slow), tree, jobs=3)
    assert result.count("generated") == 14
    assert 2 <= live["max"] <= 3


def test_results_do_not_depend_on_completion_order(tree: Any) -> None:
    outs = []
    for delay_first in (True, False):
        s = sys_.UpsertingStore()
        load(s)

        def responder(prompt: str, schema: Mapping[str, Any], delay_first: bool = delay_first) -> Any:
            if delay_first == ("orders" in subject(prompt)):
                time.sleep(0.02)
            return describing(prompt, schema)

        run(s, FakeLLMBackend(responder=responder), tree, jobs=4)
        outs.append(json.dumps([attrs.asdict(a) for a in s.list_apis()], default=str))
    assert outs[0] == outs[1]


def test_unknown_usage_stays_none_and_known_usage_is_summed_per_service(store: Any, tree: Any) -> None:
    llm = FakeLLMBackend(responder=describing, usage=LlmUsage(None, 7, None))
    result = run(store, llm, tree)
    assert result.usage == LlmUsage(None, 7 * 14, None)
    shipping = next(s for s in result.services if s.service == "shipping")
    assert shipping.usage == LlmUsage(None, 14, None) and shipping.llm_calls == 2
    assert shipping.prompt_bytes == sum(
        len(c.prompt.encode()) for c in llm.calls if subject(c.prompt).endswith("shipping")
    )


def test_plain_in_memory_store_and_no_source_tree(tree: Any) -> None:
    """Today's port: descriptions land; facts only (no tree) still gives every unit a prompt."""
    plain = InMemoryKnowledgeStore()
    load(plain)
    llm = FakeLLMBackend(responder=describing)
    result = EnrichKnowledge(plain, llm).execute(EnrichRequest(REPO, None))
    assert result.count("generated") == 14
    assert all("<<<DATA" in c.prompt and "def _charge" not in c.prompt for c in llm.calls)
    assert plain.get_service_by_id(sys_.SHIPPING.id).long_desc == "long_desc of service shipping"


def test_only_requested_services_are_enriched(store: Any, tree: Any) -> None:
    llm = FakeLLMBackend(responder=describing)
    result = EnrichKnowledge(store, llm).execute(EnrichRequest(REPO, tree, service_ids=(sys_.SHIPPING.id,)))
    assert [s.service for s in result.services] == ["shipping"]
    assert sorted(subject(c.prompt) for c in llm.calls) == [
        "endpoint POST /ship of service shipping",
        "service shipping",
    ]


def test_a_different_model_is_a_cache_miss(store: Any, tree: Any) -> None:
    run(store, FakeLLMBackend(responder=describing, model="m1"), tree)
    other = FakeLLMBackend(responder=describing, model="m2")
    assert run(store, other, tree).llm_calls == 14
