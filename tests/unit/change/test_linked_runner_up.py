"""A call from a strong match lifts a runner-up only when the task names that runner-up
(change/candidates._expand): a call alone is no evidence that the task changes a service."""

from __future__ import annotations

import pytest

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.candidates import retrieve
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Evidence,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

YARD = "yard"



def _store(with_call: bool) -> InMemoryKnowledgeStore:
    def svc(name: str, readme: str) -> Service:
        return Service(service_id(YARD, name), name, YARD, name, "python", readme=readme)

    def api(name: str, path: str, handler: str) -> Api:
        return Api(make_id("api", name, "GET", path), service_id(YARD, name), "GET", path, handler, f"{name}/app.py", 3, 4)

    calls = (ServiceCall(make_id("call", YARD, "berths", "cranes"), service_id(YARD, "berths"), CallKind.HTTP, "cranes",
                         TargetKind.INTERNAL, to_service_id=service_id(YARD, "cranes"),
                         evidence=(Evidence("berths/client.py", 7, 7),)),) if with_call else ()
    facts = [ServiceFacts(svc("berths", "Berths assigns mooring slots to arriving vessels."),
                          apis=(api("berths", "/berths/{id}/slots", "list_slots"),
                                api("berths", "/berths/schedule", "vessel_schedule")), calls=calls),
             ServiceFacts(svc("cranes", "Cranes moves containers."), apis=(api("cranes", "/cranes/schedule", "plan"),)),
             ServiceFacts(svc("gates", "Gates checks trucks in and out."), apis=(api("gates", "/gates", "lanes"),))]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(YARD, "/src/yard"), facts, [], [], [], documents_for(facts))
    return store


def _scores(task: str, with_call: bool) -> dict[str, float]:
    store = _store(with_call)
    cands, _ = retrieve(task, HybridRetriever(store), ServiceCatalog(store.list_services()), SystemGraph.load(store))
    return {name: c.score for name, c in cands.items() if c.via == "match"}


def test_a_call_from_the_strong_match_does_not_lift_a_runner_up_the_task_does_not_name() -> None:
    task = "Show vessel slots on the berths schedule"
    linked, alone = _scores(task, True), _scores(task, False)
    assert linked["cranes"] == pytest.approx(alone["cranes"])  # matched by "schedule" alone
    answer = FindChangeSurface(_store(True))(task, record=False)
    assert [f.service for f in answer.primary] == ["berths"]
    assert "cranes" not in {f.service for f in answer.secondary}


def test_a_call_still_lifts_a_runner_up_the_task_names() -> None:
    task = "Show vessel slots on the berths schedule with cranes"
    assert _scores(task, True)["cranes"] > _scores(task, False)["cranes"]
