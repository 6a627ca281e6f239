"""find_change_surface offline, with an LLM (faked), feedback and verification."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.views import FlowEdge
from orbitkb.domain.errors import InvalidInput, RunNotFound, ServiceNotFound
from orbitkb.domain.fakes.llm import FakeLLMBackend
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.feedback import RecordFeedback

from .seed import PINNED_IN_SURFACE, seeded_store


def names(items):
    return [i.service for i in items]


def test_pix_task_offline_names_checkout_and_payments_first() -> None:
    store = seeded_store()
    s = FindChangeSurface(store)("Add Pix as a payment method in checkout")
    assert set(names(s.primary)) >= {"checkout", "payments"}
    assert "catalog" not in names(s.primary) + names(s.secondary)
    assert s.classified_by == "deterministic" and s.run_cost_usd is None and s.run_id == 1
    assert FlowEdge("checkout", "payments", "HTTP") in s.flow
    assert any(x.service == "Stripe API" and x.via_service == "payments" for x in s.external_integrations)
    assert any(x.service == "fraud-service" for x in s.unmapped_internal_hint)
    assert any(u.service == "fraud-service" and u.status == "unknown" for u in s.unknowns)
    contracts = {c.contract: c for c in s.contracts_at_risk}
    assert contracts["payment.authorized"].consumers == ("notification", "orders")
    assert contracts["POST /payments/charges"].consumers == ("checkout",)
    assert any(p.entity == "payments" for p in s.persistence_affected)
    assert s.freshness["payments"].stale is None
    assert s.recommended_next_queries[0].tool in ("describe_service", "describe_api")
    for f in s.primary:
        assert 0 < f.confidence <= 1 and f.reason


def test_task_matching_nothing_returns_empty_with_unknowns_and_no_llm() -> None:
    backend = FakeLLMBackend([])
    s = FindChangeSurface(seeded_store(), backend=backend)("Quantum entanglement telemetry")
    assert s.primary == s.secondary == () and s.note
    assert any("matches nothing" in u.reason for u in s.unknowns)
    assert backend.calls == []


def test_hint_services_anchor_the_search() -> None:
    s = FindChangeSurface(seeded_store())("Improve the nightly job", hint_services=["ledger"])
    assert names(s.primary) == ["ledger"]


def test_an_unknown_hint_is_an_error_naming_the_closest_services() -> None:
    with pytest.raises(ServiceNotFound, match="ledgr") as err:
        FindChangeSurface(seeded_store())("Improve the nightly job", hint_services=["ledger", "ledgr"])
    assert "ledger" in err.value.suggestions


def test_llm_classification_drops_invented_names_and_reports_cost() -> None:
    answer = {"primary": [{"service": "payments", "reason": "owns payment methods", "confidence": 0.9},
                          {"service": "fraud-engine", "reason": "invented", "confidence": 0.9}],
              "secondary": [{"service": "checkout", "reason": "shows the option", "confidence": 0.6}],
              "no_change_hint": []}
    backend = FakeLLMBackend([LlmResult(answer, LlmUsage(100, 20, 0.0123))])
    s = FindChangeSurface(seeded_store(), backend=backend)("Add Pix as a payment method in checkout")
    assert names(s.primary) == ["payments"] and names(s.secondary) == ["checkout"]
    assert s.run_cost_usd == 0.0123 and s.classified_by.startswith("llm:")
    assert "dropped" in (s.note or "")
    prompt = backend.calls[0][0] if isinstance(backend.calls[0], tuple) else backend.calls[0].prompt
    assert "<data>" in prompt and "Add Pix" in prompt


def test_llm_failure_falls_back_and_says_so() -> None:
    from orbitkb.domain.errors import LlmError

    backend = FakeLLMBackend([LlmError("boom")])
    s = FindChangeSurface(seeded_store(), backend=backend)("Add Pix as a payment method in checkout")
    assert s.classified_by == "deterministic" and "failed" in (s.note or "")
    assert "payments" in names(s.primary)


def test_feedback_recalibrates_after_three_entries() -> None:
    store = seeded_store()
    find = FindChangeSurface(store)
    first = find("Refund a card payment")
    base = next(f.confidence for f in first.primary if f.service == "payments")
    record = RecordFeedback(store)
    second = find("Refund a card payment")
    for run in (first, second):
        record(run.run_id, "payments", "rejected")
    record(first.run_id, "payments", "rejected")  # the same verdict again: still one entry (issue 13 #10)
    same = next(f.confidence for f in find("Refund a card payment").primary if f.service == "payments")
    assert same == base  # fewer than 3 entries: no change
    record(find("Refund a card payment").run_id, "payments", "rejected")
    after = next(f.confidence for f in find("Refund a card payment").primary if f.service == "payments")
    assert after == round(0.7 * base, 2)


def test_similar_past_tasks_by_word_overlap_without_embedder() -> None:
    store = seeded_store()
    find = FindChangeSurface(store)
    first = find("Add boleto as a payment method in checkout")
    RecordFeedback(store)(first.run_id, "checkout", "confirmed")
    s = find("Add Pix as a payment method in checkout")
    assert s.similar_past_tasks[0].run_id == first.run_id
    assert s.similar_past_tasks[0].outcome == "feedback: 1 confirmed, 0 rejected"


@pytest.mark.parametrize("bad", ["", "   ", "x" * 5000, None, 42])
def test_bad_tasks_are_clear_errors(bad) -> None:
    with pytest.raises(InvalidInput):
        FindChangeSurface(seeded_store())(bad)


def test_feedback_validation() -> None:
    store = seeded_store()
    with pytest.raises(RunNotFound):
        RecordFeedback(store)(99, "payments", "confirmed")
    run = FindChangeSurface(store)("refund").run_id
    with pytest.raises(InvalidInput):
        RecordFeedback(store)(run, "payments", "maybe")


def test_contract_change_brings_in_the_callers_of_the_matched_api() -> None:
    s = FindChangeSurface(seeded_store())("Make the currency field required in the payments charges request")
    assert "payments" in names(s.primary)
    partners = {f.service: f for f in s.secondary}
    assert "checkout" in partners and "whose contract the task changes" in partners["checkout"].reason


def test_behaviour_change_does_not_pull_callers() -> None:
    s = FindChangeSurface(seeded_store())("Retry payments charges on Stripe timeouts")
    assert "checkout" not in names(s.secondary) + names(s.primary)


def test_synonyms_bridge_business_words() -> None:
    s = FindChangeSurface(seeded_store())("Let shoppers put gift wrap in the basket before they purchase")
    assert "checkout" in names(s.primary) + names(s.secondary)


def test_a_ui_task_brings_in_the_user_facing_service() -> None:
    from orbitkb.domain.ids import service_id
    from orbitkb.domain.model import Service, ServiceFacts
    from orbitkb.domain.search_docs import documents_for

    from .seed import REPO, facts

    store = seeded_store()
    f = [*facts(), ServiceFacts(Service(service_id(REPO, "web-frontend"), "web-frontend", REPO, "web", "go"))]
    from orbitkb.domain.model import Repository

    store.replace_repository_facts(Repository(REPO, "/nowhere"), f, [], [], [], documents_for(f))
    s = FindChangeSurface(store)("Show the refund status on the order page")
    assert "web-frontend" in names(s.secondary)
    plain = FindChangeSurface(store)("Retry refunds on Stripe timeouts")
    assert "web-frontend" not in names(plain.primary) + names(plain.secondary)


def test_a_neighbour_stays_context_unless_a_contract_it_uses_changes() -> None:
    store = seeded_store()
    plain = FindChangeSurface(store)("Capture card charges in two steps")
    assert "payments" in names(plain.primary)
    assert "checkout" not in names(plain.primary) + names(plain.secondary)
    assert all("hop(s)" in f.reason for f in plain.no_change_hint if f.service == "inventory")
    contract = FindChangeSurface(store)("Make the currency field required in card charges requests")
    # it calls the charge API whose request changes: in the surface (a runner-up primary or a secondary,
    # as the evidence mix weighs it), never mere context
    assert "checkout" in names(contract.primary) + names(contract.secondary)
    assert "checkout" not in names(contract.no_change_hint)
    assert (contract.task, "checkout") in PINNED_IN_SURFACE  # no refit of the evidence mix may drop it
