"""Contract: what the LLM spent describing each service in each index run (``status SERVICE``)."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.runs import IndexRun, ServiceIndexCost


def run_of(store, repo: str) -> int:
    return store.add_index_run(IndexRun(None, repo, "2024-05-01T00:00:00Z", backend="claude"))


def cost(run_id: int, repo: str, name: str, calls: int = 3, cost_usd: float | None = 0.0125) -> ServiceIndexCost:
    return ServiceIndexCost(run_id, repo, f"svc:{repo}:{name}", name, llm_calls=calls,
                            input_tokens=1200 + calls, output_tokens=None if cost_usd is None else 340,
                            cost_usd=cost_usd)  # fmt: skip


def test_costs_round_trip_newest_run_first_then_by_service(store):
    first, second = run_of(store, "shop"), run_of(store, "shop")
    store.add_index_costs([cost(first, "shop", "orders"), cost(first, "shop", "billing", 5, None)])
    store.add_index_costs([cost(second, "shop", "orders", 1, 0.5)])
    assert store.list_index_costs() == [
        cost(second, "shop", "orders", 1, 0.5), cost(first, "shop", "billing", 5, None), cost(first, "shop", "orders"),
    ]
    assert store.list_index_costs("shop", "svc:shop:orders") == [cost(second, "shop", "orders", 1, 0.5),
                                                                 cost(first, "shop", "orders")]
    assert store.list_index_costs(service_id="svc:shop:billing")[0].output_tokens is None


def test_costs_filter_by_repository_and_service(store):
    shop, crm = run_of(store, "shop"), run_of(store, "crm")
    store.add_index_costs([cost(shop, "shop", "orders"), cost(crm, "crm", "orders")])
    assert [c.repository for c in store.list_index_costs("crm")] == ["crm"]
    assert store.list_index_costs("shop", "svc:crm:orders") == []
    assert store.list_index_costs("nowhere") == [] and store.list_index_costs(service_id="svc:x") == []


def test_recording_a_service_again_in_one_run_replaces_its_cost(store):
    run = run_of(store, "shop")
    store.add_index_costs([cost(run, "shop", "orders", 2)])
    store.add_index_costs([cost(run, "shop", "orders", 7), cost(run, "shop", "orders", 9)])  # the last one wins
    assert store.list_index_costs() == [cost(run, "shop", "orders", 9)]
    store.add_index_costs([])  # nothing to record: nothing happens
    assert len(store.list_index_costs()) == 1


def test_a_cost_of_an_unknown_run_is_refused_and_nothing_is_written(store):
    run = run_of(store, "shop")
    with pytest.raises(RunNotFound):
        store.add_index_costs([cost(run, "shop", "orders"), cost(run + 100, "shop", "billing")])
    assert store.list_index_costs() == []


def test_costs_keep_every_field(store):
    run = run_of(store, "shop")
    full = ServiceIndexCost(run, "shop", "svc:1", "Größe-✓", 4, 10_000_000, 2_000_000, 12.5)
    store.add_index_costs([full, attrs.evolve(full, service_id="svc:2", input_tokens=None, cost_usd=None)])
    assert store.list_index_costs(service_id="svc:1") == [full]
    assert store.list_index_costs(service_id="svc:2")[0].cost_usd is None


def test_recording_costs_moves_the_snapshot_fingerprint(store):
    """describe_service shows them from a kept model: writing them must make it reload."""
    run = run_of(store, "shop")
    before = store.snapshot_fingerprint()
    store.add_index_costs([cost(run, "shop", "orders")])
    after = store.snapshot_fingerprint()
    assert after != before
    store.add_index_costs([])
    assert store.snapshot_fingerprint() == after
