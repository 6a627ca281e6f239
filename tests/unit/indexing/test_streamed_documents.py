"""Search documents are handed to the store as they are built (issue 14: peak index memory): the
lazy form gives exactly the documents of the list form, one service's at a time, and indexing
passes the store a one-pass iterable, never a list of every document."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, CallKind, Direction, Message, Service, ServiceCall, ServiceFacts
from orbitkb.domain.search_docs import documents_for, iter_documents
from orbitkb.domain.usecases.indexing import IndexRequest

from .test_index_repository import StubAnalyzer, make, result


def service(name: str, words: tuple[str, ...] = ()) -> ServiceFacts:
    sid = service_id("shop", name)
    api = Api(make_id("api", sid, "list"), sid, "GET", f"/{name}", "list_all", f"{name}/app.py", 1, 3)
    call = ServiceCall(make_id("call", sid, "ledger"), sid, CallKind.HTTP, "ledger")
    message = Message(make_id("msg", sid, "paid"), sid, Direction.PUBLISHES, "invoice.paid", "kafka")
    return ServiceFacts(Service(sid, name, "shop", name, "python", readme="Bills the customers."),
                        apis=(api,), calls=(call,), messages=(message,), vocabulary=words)


def test_the_lazy_documents_are_the_documents_in_the_same_order() -> None:
    facts = [service("billing", ("invoice", "invoice", "tax")), service("orders"), service("ledger", ("entry",))]
    assert list(iter_documents(facts)) == documents_for(facts)
    assert [d.kind for d in documents_for(facts)[:5]] == ["service", "api", "call", "message", "source"]


def test_the_lazy_documents_read_one_service_at_a_time() -> None:
    read: list[str] = []

    def facts() -> Iterator[ServiceFacts]:
        for name in ("billing", "orders", "ledger"):
            read.append(name)
            yield service(name)

    documents = iter_documents(facts())
    first = next(documents)
    assert first.service == "billing" and read == ["billing"]
    assert {d.service for d in documents} == {"billing", "orders", "ledger"}


class RecordingStore(InMemoryKnowledgeStore):
    """The in-memory store, noting what kind of object the documents came in."""

    given: list[Any] = []

    def replace_repository_facts(self, repository, services, resources, gaps, files,  # type: ignore[override]
                                 documents: Iterable[Any], *, if_indexed: bool = False) -> None:
        RecordingStore.given.append(documents)
        super().replace_repository_facts(repository, services, resources, gaps, files, documents,
                                          if_indexed=if_indexed)


def test_indexing_hands_the_store_documents_as_they_are_built(tmp_path: Path) -> None:
    store = RecordingStore()
    make(store, StubAnalyzer(result(("orders", None), ("billing", "orders"))))(IndexRequest(str(tmp_path), "shop"))
    given = RecordingStore.given[-1]
    assert not isinstance(given, (list, tuple)) and iter(given) is given  # one pass, not a list of all
    assert {h.name for h in store.search(["orders"])} >= {"orders"}
