"""describe_service and get_relationships answer with typed views, never a dict: a description's
pages and a relationship's provenance are attrs records whose JSON is the shape they always had."""

from __future__ import annotations

import attrs

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Evidence,
    Provenance,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
)
from orbitkb.domain.serialization import to_data
from orbitkb.domain.usecases.architecture import GetRelationships, ProvenanceRef
from orbitkb.domain.usecases.describe import DescribeService
from orbitkb.domain.views import DescriptionPages, ListPage


def _store() -> InMemoryKnowledgeStore:
    kitchen, waiter = service_id("diner", "kitchen"), service_id("diner", "waiter")
    apis = tuple(Api(make_id("api", p), kitchen, "POST", p, "cook", "kitchen/app.py", i + 1, i + 1)
                 for i, p in enumerate(("/tickets", "/tickets/{id}/fire", "/specials")))
    calls = (ServiceCall(make_id("call", "tickets"), waiter, CallKind.HTTP, "kitchen", to_service_id=kitchen,
                         evidence=(Evidence("waiter/orders.py", 4, 4),)),
             ServiceCall(make_id("call", "specials"), waiter, CallKind.HTTP, "kitchen", to_service_id=kitchen,
                         provenance=Provenance.LLM, confidence=0.6, reason="reads the specials board"))
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository("diner", "/diner"), [
        ServiceFacts(Service(kitchen, "kitchen", "diner", "kitchen", "python"), apis=apis),
        ServiceFacts(Service(waiter, "waiter", "diner", "waiter", "python"), calls=calls)], [], [], [], [])
    return store


def test_a_description_says_its_pages_as_a_record() -> None:
    d = DescribeService(_store())("kitchen", limit=2, offset=0)
    assert d.pagination == DescriptionPages(2, 0, ListPage(0, False), ListPage(3, True), ListPage(0, False),
                                            ListPage(0, False), ListPage(0, False), ListPage(0, False))
    assert d.pagination.apis.truncated and not d.pagination.calls.truncated


def test_the_pages_are_written_as_before_limit_and_offset_then_one_object_per_list() -> None:
    data = to_data(DescribeService(_store())("waiter", limit=1, offset=1))
    assert data["pagination"] == {"limit": 1, "offset": 1, "calls": {"total": 2, "truncated": False},
                                  "apis": {"total": 0, "truncated": False},
                                  "components": {"total": 0, "truncated": False},
                                  "persists": {"total": 0, "truncated": False},
                                  "messages": {"total": 0, "truncated": False},
                                  "technologies": {"total": 0, "truncated": False}}
    assert list(data["pagination"]) == ["limit", "offset", "calls", "apis", "components", "persists", "messages",
                                        "technologies"]
    # the pages keep their place in the answer: after freshness, before technologies
    keys = list(data)
    assert keys.index("freshness") + 1 == keys.index("pagination") == keys.index("technologies") - 1


def test_a_relationship_names_who_stated_it() -> None:
    rel = GetRelationships(_store())("kitchen")
    sources = sorted(r.provenance.source for r in rel.relationships)
    assert sources == ["deterministic", "llm"]
    assert all(isinstance(r.provenance, ProvenanceRef) for r in rel.relationships)
    data = to_data(rel)
    assert sorted(r["provenance"]["source"] for r in data["relationships"]) == sources
    assert all(r["provenance"] == {"source": r["provenance"]["source"]} for r in data["relationships"])
    assert list(data["relationships"][0]) == [a.name for a in attrs.fields(type(rel.relationships[0]))]
