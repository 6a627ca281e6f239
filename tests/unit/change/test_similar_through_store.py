"""similar_past_tasks compares the task with the past tasks through the store's ``similarities``
(one matrix product in a database store), and answers exactly as the cosines computed here."""

from __future__ import annotations

from collections.abc import Sequence

from orbitkb.domain.change.similar import similar_past_tasks
from orbitkb.domain.fakes import FakeEmbedder
from orbitkb.domain.fakes.memory_store import InMemoryKnowledgeStore
from orbitkb.domain.model import Repository
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.embeddings import EmbedKnowledge

from .seed import REPO, facts, seeded_store

PAST = ["Add boleto as a payment method in checkout", "Refund a card payment when an order is cancelled",
        "Charge the customer's card twice for split orders", "Rename the checkout button",
        "Store the payment reason with each refund", "Retry card charges that time out"]
ASKED = ["Add Pix as a payment method in checkout", "refund a card payment", "rename checkout",
         "charge the card", "something about weather and tea"]


class CountingStore(InMemoryKnowledgeStore):
    """The in-memory store, counting the owners it was asked to compare."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[int] = []

    def similarities(self, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        self.asked.append(len(owner_ids))
        return super().similarities(model_id, vector, owner_kind, owner_ids)


def counting_store() -> CountingStore:
    """The seed's system in a CountingStore."""
    store, f = CountingStore(), facts()
    store.replace_repository_facts(Repository(REPO, "/nowhere", "none", None, "2026-01-01T00:00:00+00:00"), f,
                                   [], [], [], documents_for(f))
    return store


def _with_history(store: InMemoryKnowledgeStore) -> tuple[FindChangeSurface, FakeEmbedder]:
    embedder = FakeEmbedder()
    EmbedKnowledge(store, embedder)(None, facts())
    find = FindChangeSurface(store, embedder=embedder)
    for task in PAST:
        find(task)
    return find, embedder


def test_answers_are_the_same_through_the_store_as_computed_here() -> None:
    store = seeded_store()
    _, embedder = _with_history(store)
    history = store.change_history(model_id=embedder.model_id)
    assert len(history.task_vectors) == len(PAST)
    for task in ASKED + PAST:
        vector = embedder.embed([task])[0]
        here = similar_past_tasks(history, task, embedder, vector)
        stored = similar_past_tasks(history, task, embedder, vector,
                                    lambda q, owners: store.similarities(embedder.model_id, q, "run", owners))
        assert stored == here
    assert any(similar_past_tasks(history, t, embedder) for t in ASKED)  # not vacuously equal


def test_the_change_surface_asks_the_store_once_for_every_past_task() -> None:
    store = counting_store()
    find, _ = _with_history(store)
    asked_before = len(store.asked)
    answer = find("Add Pix as a payment method in checkout")
    assert store.asked[asked_before:] == [len(PAST)]
    assert answer.similar_past_tasks and answer.similar_past_tasks[0].task == PAST[0]


def test_without_an_embedder_the_store_is_not_asked() -> None:
    store = counting_store()
    find = FindChangeSurface(store)
    find(PAST[0])
    assert find("Add Pix as a payment method in checkout").similar_past_tasks
    assert store.asked == []
