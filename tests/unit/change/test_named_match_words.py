"""A file name or a loose name the task writes counts the task's words it holds, each once:
"chat.css" is the words chat and css, never a third word beside them, so a reason reads "(3/3)"
and the ranking's ``coverage`` stays within 0..1."""

from __future__ import annotations

import pytest

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.candidates import name_words, retrieve, task_terms
from orbitkb.domain.change.ranking import features
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.runs import IndexedFile
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

MARKET = "market"


def _svc(name: str) -> Service:
    return Service(service_id(MARKET, name), name, MARKET, name, "node-ts")


def _store() -> InMemoryKnowledgeStore:
    facts = [
        ServiceFacts(_svc("lobby"), vocabulary=("chat", "colours", "css", "stall")),
        ServiceFacts(_svc("ledger"), vocabulary=("invoice", "stall", "total")),
        ServiceFacts(_svc("stock-keeper"), vocabulary=("crate", "count", "stall")),
    ]
    files = [IndexedFile(MARKET, "lobby/static/chat.css", "0" * 64, 10, service_id(MARKET, "lobby"), None),
             IndexedFile(MARKET, "ledger/sums.js", "0" * 64, 10, service_id(MARKET, "ledger"), None)]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(MARKET, "/src/market"), facts, [], [], files, documents_for(facts))
    return store


def _matched(task: str, files: dict[str, list[str]] | None = None) -> tuple[dict[str, set[str]], list[str]]:
    store = _store()
    services = store.list_services()
    cands, _ = retrieve(task, HybridRetriever(store), ServiceCatalog(services), SystemGraph.load(store),
                        files=files)
    return {name: set(c.matched_terms) for name, c in cands.items()}, task_terms(task, name_words(services))


@pytest.mark.parametrize("task", ["Fix the colours of chat.css", "chat.css: colours", "colours in `chat.css` chat"])
def test_a_named_file_counts_the_task_words_it_holds_once(task: str) -> None:
    matched, terms = _matched(task, {service_id(MARKET, "lobby"): ["lobby/static/chat.css"]})
    assert matched["lobby"] == {"chat", "css", "colours"}
    assert matched["lobby"] <= set(terms)


def test_the_reason_and_the_coverage_never_count_more_words_than_the_task_has() -> None:
    surface = FindChangeSurface(_store())("Fix the colours of chat.css", record=False)
    assert [f.service for f in surface.primary] == ["lobby"]
    assert "(3/3)" in surface.primary[0].reason
    store = _store()
    task = "Fix the colours of chat.css"
    cands, _ = retrieve(task, HybridRetriever(store), ServiceCatalog(store.list_services()), SystemGraph.load(store),
                        files={service_id(MARKET, "lobby"): ["lobby/static/chat.css"]})
    terms = task_terms(task, name_words(store.list_services()))
    assert all(f["coverage"] <= 1.0 for f in features(cands.values(), len(terms), 3).values())


def test_a_loose_name_counts_its_task_words_not_the_phrase() -> None:
    # two misspelt words name stock-keeper loosely: they count as the two task words, not as one phrase
    matched, terms = _matched("the stokc kepeer miscounts a crate")
    assert {"stokc", "kepeer"} <= matched["stock-keeper"] <= set(terms)
    matched, terms = _matched("stockkeeper miscounts a crate")  # run together: one word
    assert "stockkeeper" in matched["stock-keeper"] and matched["stock-keeper"] <= set(terms)


def _file_hits(files: dict[str, list[str]]) -> list[str]:
    store = _store()
    cands, _ = retrieve("Fix the colours of chat.css", HybridRetriever(store), ServiceCatalog(store.list_services()),
                        SystemGraph.load(store), files=files)
    return [h.service for c in cands.values() for h in c.hits if h.kind == "file"]


def test_a_file_no_service_owns_adds_nothing() -> None:
    assert _file_hits({service_id(MARKET, "lobby"): ["lobby/static/chat.css"]}) == ["lobby"]
    assert _file_hits({}) == []
    assert _file_hits({service_id(MARKET, "gone"): ["gone/chat.css"]}) == []  # an id the index does not hold
    matched, _ = _matched("Fix the colours of chat.css", {})
    assert "ledger" not in matched
