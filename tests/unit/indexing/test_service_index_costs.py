"""An index run records what its LLM calls cost service by service (issue 13, `status SERVICE`):
summed over the hooks, only for services whose units were sent, and scoped by GetStatus."""

from __future__ import annotations

from pathlib import Path

from orbitkb.domain.enrichment.results import ServiceCost
from orbitkb.domain.fakes import FakeLLMBackend, InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.ids import service_id
from orbitkb.domain.runs import IndexRun, LlmUsage
from orbitkb.domain.usecases.enrich_hook import EnrichAfterIndex
from orbitkb.domain.usecases.indexing import HookOutcome, IndexRequest
from orbitkb.domain.usecases.status import GetStatus
from tests.unit.indexing.test_index_repository import StubAnalyzer, make, result


def spent(name: str, calls: int, cost: float | None, tokens: int | None = 10) -> ServiceCost:
    return ServiceCost(service_id("shop", name), name, llm_calls=calls,
                       usage=LlmUsage(input_tokens=tokens, output_tokens=None, cost_usd=cost))


def hook(*costs: ServiceCost):
    def run(repo, facts) -> HookOutcome:
        total = sum((c.usage for c in costs), LlmUsage())
        return HookOutcome("llm", True, llm_calls=sum(c.llm_calls for c in costs), input_tokens=total.input_tokens,
                           output_tokens=total.output_tokens, cost_usd=total.cost_usd, service_costs=costs)
    return run


def test_costs_of_one_service_from_several_hooks_are_summed_and_idle_services_skipped(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    hooks = (hook(spent("orders", 3, 0.25), spent("mailer", 0, None)), hook(spent("orders", 1, None, None)),
             hook(spent("billing", 2, 0.5, None)))
    done = make(store, StubAnalyzer(result(("orders", None), ("billing", None), ("mailer", None))), hooks)(
        IndexRequest(str(tmp_path), "shop"))
    costs = store.list_index_costs("shop")
    assert [(c.service, c.llm_calls, c.input_tokens, c.cost_usd) for c in costs] == [
        ("billing", 2, None, 0.5), ("orders", 4, 10, 0.25)]  # mailer sent nothing: no record, never a 0
    assert {c.run_id for c in costs} == {done.run.id} and done.run.llm_calls == 6


def test_an_offline_index_records_no_cost(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    make(store, StubAnalyzer(result(("orders", None))))(IndexRequest(str(tmp_path), "shop"))
    assert store.list_index_costs() == [] and store.list_index_runs()[0].llm_calls == 0


def test_the_enrichment_hook_reports_each_service_s_share_of_its_calls(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    backend = FakeLLMBackend(usage=LlmUsage(input_tokens=100, output_tokens=20, cost_usd=0.01))
    enrich = EnrichAfterIndex(store, backend, open_tree=lambda p: MemorySourceTree({}), jobs=1)
    done = make(store, StubAnalyzer(result(("orders", None), ("billing", "orders"))), (enrich,))(
        IndexRequest(str(tmp_path), "shop"))
    costs = {c.service: c for c in store.list_index_costs()}
    assert set(costs) == {"orders", "billing"}
    assert sum(c.llm_calls for c in costs.values()) == done.run.llm_calls == len(backend.calls)
    for c in costs.values():
        assert c.input_tokens == 100 * c.llm_calls and abs(c.cost_usd - 0.01 * c.llm_calls) < 1e-9


def test_status_of_a_service_sums_its_share_and_counts_runs_made_before_the_split(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    store.add_index_run(IndexRun(None, "shop", "t0", llm_calls=9, input_tokens=900, cost_usd=0.9))  # an old run
    index = make(store, StubAnalyzer(result(("orders", None), ("billing", None)),
                                     result(("orders", None), ("billing", None))),
                 (hook(spent("orders", 3, 0.25), spent("billing", 1, 0.125)),))
    index(IndexRequest(str(tmp_path), "shop"))
    orders = GetStatus(store)("orders")
    assert [c.service for c in orders.service_costs] == ["orders"]
    assert orders.totals.cost_usd == 0.25 and orders.totals.input_tokens == 10
    assert orders.unattributed_runs == 1  # the old run's 0.9 is the repository's, never guessed into a service
    everything = GetStatus(store)()
    assert everything.totals.cost_usd == 0.9 + 0.375 and everything.service_costs == ()
    assert GetStatus(store)("billing").totals.cost_usd == 0.125


def test_a_kept_model_shows_costs_recorded_after_it_was_loaded() -> None:
    from orbitkb.domain.model_cache import CachedModelReader
    from orbitkb.domain.runs import ServiceIndexCost
    from orbitkb.domain.usecases.describe import DescribeService
    from tests.unit.change.seed import seeded_store, sid

    store = seeded_store()
    describe = DescribeService(store, models=CachedModelReader(store))
    assert describe("payments").index_cost is None
    run = store.add_index_run(IndexRun(None, "shop", "t0", llm_calls=3))
    store.add_index_costs([ServiceIndexCost(run, "shop", sid("payments"), "payments", 3, 30, 3, 0.03)])
    cost = describe("payments").index_cost
    assert cost is not None and (cost.runs, cost.llm_calls, cost.cost_usd) == (1, 3, 0.03)
