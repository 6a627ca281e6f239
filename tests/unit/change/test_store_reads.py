"""Load once, reuse: on a warm process find_change_surface reads the store at most three times per
call (the snapshot's fingerprint, every keyword query in one batch, the change history); every
other fact comes from the SystemModel kept by the process. The describe and graph readers read
only the fingerprint. Counted by a wrapper around the in-memory store (a fake, no mock)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest

from orbitkb.domain.change.similar import similar_past_tasks
from orbitkb.domain.fakes import FakeEmbedder
from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.ports import FactsWriter, RunLog
from orbitkb.domain.usecases.architecture import GetRelationships, TraceFlow
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.describe import DescribeApi, DescribeService, ListServices
from orbitkb.domain.usecases.embeddings import EmbedKnowledge
from tests.support.stores import role_methods

from .seed import facts, seeded_store

#: writes are not reads: recording the run (and its task vector) is the answer's own history
WRITES = set(role_methods(FactsWriter)) | {m for m in role_methods(RunLog) if m.startswith(("add_", "update_"))} | {
    "put_embeddings", "delete_embeddings", "put_llm_cache", "close"}


class CountingStore:
    """Every store method called, counted by name; reads are the calls that are not writes."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._store, name)
        if not callable(target):
            return target

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return target(*args, **kwargs)

        return counted

    def reads(self) -> Counter[str]:
        return Counter({k: v for k, v in self.calls.items() if k not in WRITES})


TASKS = ("Add Pix as a payment method in checkout", "Refund a card payment when an order is cancelled",
         "Rename the status of shipments", "Quantum entanglement telemetry")


def warm(embedder: Any = None) -> tuple[CountingStore, FindChangeSurface]:
    store = CountingStore(seeded_store())
    if embedder is not None:
        EmbedKnowledge(store._store, embedder)(None, facts())
    find = FindChangeSurface(store, embedder=embedder, models=CachedModelReader(store))  # type: ignore[arg-type]
    find("warm the model up")
    store.calls.clear()
    return store, find


@pytest.mark.parametrize("task", TASKS)
def test_find_change_surface_reads_the_store_at_most_three_times_when_warm(task):
    store, find = warm()
    find(task)
    reads = store.reads()
    assert sum(reads.values()) <= 3, reads
    assert reads["snapshot_fingerprint"] == 1 and reads["load_model"] == 0
    assert store.calls["add_change_surface_run"] == 1  # the run is still recorded


def test_with_an_embedder_the_task_is_embedded_once(monkeypatch):
    embedder = FakeEmbedder()
    store, find = warm(embedder)
    seen: list[str] = []
    original = embedder.embed
    monkeypatch.setattr(embedder, "embed", lambda texts: (seen.extend(texts), original(texts))[1])
    find(TASKS[0])
    find(TASKS[1])
    assert seen.count(TASKS[0]) == 1 and seen.count(TASKS[1]) == 1
    reads = store.reads()
    # the task's nearest vectors come with the keyword batch, its cosines to the past tasks with
    # the history: three reads per call, as offline
    assert reads == Counter({"snapshot_fingerprint": 2, "retrieve": 2, "change_history": 2}), reads


def test_with_an_embedder_the_similar_past_tasks_are_the_ones_computed_apart():
    """The history read with the task's vector changes no answer: the similar past tasks are
    those the pure cosine over the past tasks' vectors gives."""
    embedder = FakeEmbedder()
    store, find = warm(embedder)
    for task in TASKS:
        find(task)  # past tasks, their vectors recorded
    task = "Add Pix as a new payment method in the checkout"
    history = store._store.change_history(model_id=embedder.model_id)  # vectors, not cosines
    expected = similar_past_tasks(history, task, embedder)
    found = find(task, record=False).similar_past_tasks
    assert found and found == tuple(expected)
    assert found[0].task == TASKS[0]


def test_the_same_answers_with_and_without_the_kept_model():
    for task in TASKS:
        cold = FindChangeSurface(seeded_store())(task, record=False)
        _, find = warm()
        hot = find(task, record=False)
        assert (hot.primary, hot.secondary, hot.contracts_at_risk, hot.flow, hot.unknowns) == (
            cold.primary, cold.secondary, cold.contracts_at_risk, cold.flow, cold.unknowns)


def test_readers_on_the_model_read_only_the_fingerprint_when_warm():
    store = CountingStore(seeded_store())
    models = CachedModelReader(store)  # type: ignore[arg-type]
    asks = [lambda: ListServices(store, models)(),  # type: ignore[arg-type]
            lambda: DescribeService(store, models=models)("payments"),  # type: ignore[arg-type]
            lambda: DescribeApi(store, models=models)("payments", "POST", "/payments/charges"),  # type: ignore[arg-type]
            lambda: GetRelationships(store, models=models)("payments"),  # type: ignore[arg-type]
            lambda: TraceFlow(store, models=models)("checkout", "payments")]  # type: ignore[arg-type]
    for ask in asks:
        ask()
    store.calls.clear()
    for ask in asks:
        ask()
    assert store.reads() == Counter({"snapshot_fingerprint": len(asks)})


def test_a_write_makes_the_next_answer_read_the_new_snapshot():
    store = seeded_store()
    models = CachedModelReader(store)
    describe = DescribeService(store, models=models)
    assert describe("payments").short_desc != "takes money"
    payments = next(s for s in store.list_services() if s.name == "payments")
    store.update_services([attrs.evolve(payments, short_desc="takes money")])
    assert describe("payments").short_desc == "takes money" and models.loads == 2
