"""EmbedKnowledge deletes the vectors of facts that are gone, and reads the stored facts back only
when some vector belongs to an owner outside the facts it was just given."""

from __future__ import annotations

from typing import Any

from orbitkb.domain.fakes import FakeEmbedder, InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.embeddings import EmbedKnowledge


class CountingStore(InMemoryKnowledgeStore):
    """Counts the reads of every API (what reading all facts back starts with)."""

    def __init__(self) -> None:
        super().__init__()
        self.api_reads = 0

    def list_apis(self, *args: Any, **kwargs: Any) -> Any:
        self.api_reads += 1
        return super().list_apis(*args, **kwargs)


def library(with_loans: bool = True) -> list[ServiceFacts]:
    books = service_id("library", "catalogue")
    apis = [Api(make_id("api", books, "GET", "/books"), books, "GET", "/books", "list_books", "books.py", 3, 9,
                doc="Lists the books on the shelves.")]
    if with_loans:
        apis.append(Api(make_id("api", books, "POST", "/loans"), books, "POST", "/loans", "lend_book", "loans.py",
                        4, 12, doc="Lends a book to a member for three weeks."))
    members = service_id("library", "members")
    return [ServiceFacts(Service(books, "catalogue", "library", "catalogue", "python"), apis=tuple(apis)),
            ServiceFacts(Service(members, "members", "library", "members", "go", readme="Who may borrow."))]


def write(store: InMemoryKnowledgeStore, facts: list[ServiceFacts]) -> None:
    store.replace_repository_facts(Repository("library", "/src/library", "none"), facts, [], [], [],
                                   documents_for(facts))


def test_a_first_embedding_reads_no_fact_back_and_a_vanished_api_loses_its_vectors() -> None:
    store, embedder = CountingStore(), FakeEmbedder(dim=8)
    facts = library()
    write(store, facts)
    first = EmbedKnowledge(store, embedder)(None, facts)
    assert store.api_reads == 0 and "0 removed" in first.message
    loans = make_id("api", service_id("library", "catalogue"), "POST", "/loans")
    assert loans in {e.owner_id for e in store.list_embeddings(embedder.model_id)}
    fewer = library(with_loans=False)
    write(store, fewer)
    second = EmbedKnowledge(store, embedder)(None, fewer)
    assert store.api_reads == 1 and "1 removed" in second.message
    owners = {e.owner_id for e in store.list_embeddings(embedder.model_id)}
    assert loans not in owners and make_id("api", service_id("library", "catalogue"), "GET", "/books") in owners


def test_vectors_of_another_repository_are_kept() -> None:
    store, embedder = CountingStore(), FakeEmbedder(dim=8)
    facts = library()
    write(store, facts)
    EmbedKnowledge(store, embedder)(None, facts)
    shop = service_id("shop", "checkout")
    other = [ServiceFacts(Service(shop, "checkout", "shop", "checkout", "node"),
                          apis=(Api(make_id("api", shop, "POST", "/pay"), shop, "POST", "/pay", "pay", "pay.ts", 1, 5,
                                    doc="Takes the payment."),))]
    store.replace_repository_facts(Repository("shop", "/src/shop", "none"), other, [], [], [], documents_for(other))
    outcome = EmbedKnowledge(store, embedder)(None, other)
    assert "0 removed" in outcome.message  # the library's vectors belong to facts still stored
    assert make_id("api", service_id("library", "catalogue"), "POST", "/loans") in {
        e.owner_id for e in store.list_embeddings(embedder.model_id)}
