"""Contract: what enrichment writes — calls upserted (an LLM may propose new ones), descriptive
fields of APIs, entities and messages rewritten in place, and a re-index replacing it all."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.errors import StoreError
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Direction,
    EntityField,
    Evidence,
    Provenance,
    PurposeKind,
    ServiceCall,
    ShapeField,
    TargetKind,
    Validation,
)


def proposed(from_sid: str, target: str, **changes: object) -> ServiceCall:
    """A call the LLM read in a handler and the static pass missed: provenance llm, low confidence."""
    call = ServiceCall(
        make_id("call", from_sid, "llm", target), from_sid, CallKind.GRPC, target,
        target_kind=TargetKind.UNKNOWN, method="Charge", path="payments.v1.Payments/Charge",
        reason="charges the card before confirming", data_needed=("amount",),
        purpose_kind=PurposeKind.VALIDATION, confidence=0.4,
        evidence=(Evidence("services/orders/client.py", 40, 44, note="llm"),), provenance=Provenance.LLM,
    )  # fmt: skip
    return attrs.evolve(call, **changes)


def test_a_new_call_is_inserted_and_reads_back_exactly(store, samples):
    orders, billing = samples.service_facts("shop", "orders"), samples.service_facts("shop", "billing")
    samples.replace(store, "shop", [orders, billing])
    payments = service_id("pay", "payments")  # another repository, not indexed yet: no foreign key
    new = proposed(orders.service.id, "payments", to_service_id=payments)
    store.update_calls([new])
    assert new in store.list_calls(from_service_id=orders.service.id)
    assert store.list_calls(to_service_id=payments) == [new]
    assert store.list_calls_to_target(["payments"]) == [new]
    assert len(store.list_calls()) == 5
    calls = store.list_calls()
    assert [(c.from_service_id, c.target, c.id) for c in calls] == sorted(
        (c.from_service_id, c.target, c.id) for c in calls
    )
    got = store.list_calls_to_target(["payments"])[0]
    assert got.provenance is Provenance.LLM and got.call_kind is CallKind.GRPC and got.confidence == 0.4


def test_one_batch_rewrites_some_calls_and_inserts_others(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    reasoned = attrs.evolve(
        orders.calls[0], reason="settles the invoice", purpose_kind=PurposeKind.PERSISTENCE
    )
    new = proposed(orders.service.id, "fraud-check")
    store.update_calls([new, reasoned])
    by_id = {c.id: c for c in store.list_calls()}
    assert by_id == {reasoned.id: reasoned, orders.calls[1].id: orders.calls[1], new.id: new}


def test_a_later_duplicate_in_the_batch_wins(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    first = proposed(orders.service.id, "ledger", reason="first guess")
    second = attrs.evolve(first, reason="second guess", confidence=0.3)
    again = attrs.evolve(orders.calls[1], reason="one")
    store.update_calls([first, again, second, attrs.evolve(again, reason="two")])
    by_id = {c.id: c for c in store.list_calls()}
    assert by_id[first.id] == second
    assert by_id[again.id].reason == "two"
    assert len(by_id) == 3


def test_a_call_may_come_from_a_service_of_another_repository(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    contacts = samples.service_facts("crm", "contacts")
    samples.replace(store, "crm", [contacts])
    new = proposed(contacts.service.id, "orders", to_service_id=service_id("shop", "orders"))
    store.update_calls([new])
    assert new in store.list_calls(from_service_id=contacts.service.id)


@pytest.mark.parametrize("caller", ["svc:ghost", service_id("shop", "billing"), ""])
def test_a_new_call_from_an_unknown_service_is_refused_and_nothing_is_written(store, samples, caller):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    before = store.list_calls()
    good = proposed(orders.service.id, "ledger")
    rewrite = attrs.evolve(orders.calls[0], reason="would have changed")
    orphan = proposed(caller, "payments")
    with pytest.raises(StoreError) as raised:
        store.update_calls([good, rewrite, orphan])
    assert orphan.id in str(raised.value)
    assert store.list_calls() == before
    # the store is still usable: the same batch without the orphan goes through
    store.update_calls([good, rewrite])
    assert len(store.list_calls()) == 3


def test_an_existing_call_is_rewritten_even_when_the_given_caller_is_unknown(store, samples):
    """Reconciliation rewrites by id: the stored caller is kept, whatever the object says."""
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    resolved = attrs.evolve(orders.calls[0], from_service_id="svc:ghost", to_service_id="svc:billing")
    store.update_calls([resolved])
    assert store.list_calls(to_service_id="svc:billing") == [
        attrs.evolve(resolved, from_service_id=orders.service.id)
    ]


def test_many_new_calls_in_one_batch(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    new = [proposed(orders.service.id, f"host-{i:04d}") for i in range(1200)]
    store.update_calls(list(reversed(new)))
    found = store.list_calls_to_target([c.target for c in new])
    assert found == sorted(new, key=lambda c: c.target)


def test_replacement_drops_proposed_calls_and_a_reapplied_answer_lands_again(store, samples):
    """Plain replacement: a re-index writes the facts re-extracted; enrichment re-applies its
    cached answers afterwards, refused only for a caller that is no longer indexed."""
    orders, billing = samples.service_facts("shop", "orders"), samples.service_facts("shop", "billing")
    samples.replace(store, "shop", [orders, billing])
    contacts = samples.service_facts("crm", "contacts")
    samples.replace(store, "crm", [contacts])
    from_orders, from_billing = proposed(orders.service.id, "ledger"), proposed(billing.service.id, "tax")
    from_crm = proposed(contacts.service.id, "orders")
    store.update_calls([from_orders, from_billing, from_crm])

    samples.replace(store, "shop", [orders])  # billing vanished from the repository
    assert from_orders not in store.list_calls() and from_billing not in store.list_calls()
    assert set(store.list_calls(from_service_id=orders.service.id)) == set(orders.calls)
    assert from_crm in store.list_calls()  # another repository's enrichment is untouched

    store.update_calls([from_orders])
    assert from_orders in store.list_calls()
    with pytest.raises(StoreError):
        store.update_calls([from_billing])


def test_replacement_restores_the_extracted_descriptions(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    store.update_entities([attrs.evolve(e, description="llm text") for e in orders.entities])
    store.update_messages([attrs.evolve(m, description="llm text") for m in orders.messages])
    store.update_apis([attrs.evolve(a, request_shape=()) for a in orders.apis])
    samples.replace(store, "shop", [orders])
    assert set(store.list_entities()) == set(orders.entities)
    assert set(store.list_messages()) == set(orders.messages)
    assert set(store.list_apis()) == set(orders.apis)


def test_update_apis_keeps_shapes_and_leaves_facts_alone(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    original = orders.apis[1]
    enriched = attrs.evolve(
        original, method="DELETE", path="/elsewhere", handler="x", file="y.py", start_line=1, end_line=2,
        doc="rewritten doc", evidence=(), summary="reads one", description="Reads one order.",
        summary_provenance=Provenance.LLM,
        request_shape=(ShapeField("id", "path uuid", True), ShapeField("expand", "list[str]", False)),
        response_shape=(ShapeField("order", "Order", None), ShapeField("links", "dict[str, str] ✓", True)),
        validations=(Validation("authorization", "owner only", Provenance.LLM),),
    )  # fmt: skip
    store.update_apis([enriched, attrs.evolve(enriched, id="api:unknown")])
    got = {a.id: a for a in store.list_apis()}
    assert got[original.id] == attrs.evolve(
        original, summary=enriched.summary, description=enriched.description,
        summary_provenance=Provenance.LLM, request_shape=enriched.request_shape,
        response_shape=enriched.response_shape, validations=enriched.validations,
    )  # fmt: skip
    assert got[orders.apis[0].id] == orders.apis[0]
    assert len(got) == 2
    store.update_apis([attrs.evolve(original, request_shape=(), response_shape=())])
    cleared = {a.id: a for a in store.list_apis()}[original.id]
    assert cleared.request_shape == () and cleared.response_shape == ()


def test_update_entities_rewrites_the_description_only(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    target, other = orders.entities
    guess = attrs.evolve(
        target, description="Orders placed by customers (engine: probably postgres).", name="renamed",
        kind="document_collection", engine="mongodb", class_name="Other", fields=(EntityField("x", "int"),),
        evidence=(), provenance=Provenance.DETERMINISTIC,
    )  # fmt: skip
    store.update_entities([guess, attrs.evolve(guess, id="ent:unknown")])
    got = {e.id: e for e in store.list_entities()}
    assert got == {target.id: attrs.evolve(target, description=guess.description), other.id: other}
    store.update_entities([attrs.evolve(target, description=None)])
    assert {e.id: e for e in store.list_entities()}[target.id].description is None
    store.update_entities([])
    assert len(store.list_entities()) == 2


def test_update_messages_rewrites_the_description_only(store, samples):
    orders = samples.service_facts("shop", "orders")
    samples.replace(store, "shop", [orders])
    target, other = orders.messages
    guess = attrs.evolve(
        target, description="Announces a confirmed order — 注文", direction=Direction.CONSUMES,
        channel="elsewhere", provider="sqs", api_id=None, component_id=None, evidence=(),
        provenance=Provenance.DETERMINISTIC,
    )  # fmt: skip
    store.update_messages([attrs.evolve(guess, id="msg:unknown"), guess])
    got = {m.id: m for m in store.list_messages()}
    assert got == {target.id: attrs.evolve(target, description=guess.description), other.id: other}
    assert [m.id for m in store.list_messages(channel=target.channel)] == [target.id]
    assert store.list_messages(channel="elsewhere") == []
