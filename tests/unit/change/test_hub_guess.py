"""Software work that names nothing the index holds, and no word of which tells one service's code
apart, lands on the hub more often than on a leaf: the most connected service is the primary, said
to be a guess at its rule's measured rate. No hub (no links, or two share the most), no software
work, or a task that names a fact: answered as before."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.classify import RULE_RATES
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Evidence,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import ChangeSurface, FindChangeSurface

DOCK = "dock"
SHARED = ("handler", "payload", "value")


def _svc(name: str) -> Service:
    return Service(service_id(DOCK, name), name, DOCK, name, "go")


def _call(a: str, b: str, line: int) -> ServiceCall:
    return ServiceCall(make_id("call", DOCK, a, b, str(line)), service_id(DOCK, a), CallKind.HTTP, b,
                       TargetKind.INTERNAL, to_service_id=service_id(DOCK, b), evidence=(Evidence(f"{a}/out.go", line, line),))


def _store(calls: dict[str, list[tuple[str, int]]], names: tuple[str, ...] = ("berths", "cranes", "pilots")
           ) -> InMemoryKnowledgeStore:
    facts = [ServiceFacts(_svc(n), calls=tuple(_call(n, b, line) for b, line in calls.get(n, [])), vocabulary=SHARED)
             for n in names]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(DOCK, "/src/dock"), facts, [], [], [], documents_for(facts))
    return store


def ask(store: InMemoryKnowledgeStore, task: str) -> ChangeSurface:
    return FindChangeSurface(store)(task, record=False)


#: berths calls both others: the hub
HUB = {"berths": [("cranes", 3), ("pilots", 7)]}


@pytest.mark.parametrize("task", ["refactor to DI", "WIP on the observability of the backend",
                                  "Move the deployment to the staging cluster with helm"])
def test_software_work_naming_nothing_guesses_the_most_connected_service(task: str) -> None:
    s = ask(_store(HUB), task)
    assert [f.service for f in s.primary] == ["berths"] and s.secondary == ()
    (f,) = s.primary
    assert f.confidence == RULE_RATES["work, the hub"]
    assert "most connected" in f.reason and "2 links" in f.reason
    assert any("a guess" in u.reason for u in s.unknowns)


def test_the_hub_is_counted_by_call_sites() -> None:
    # berths calls two services once each; cranes calls one outside host from three places: by call
    # sites cranes has the most links (4 against 2), by distinct services berths would
    facts = [ServiceFacts(_svc("berths"), calls=(_call("berths", "cranes", 1), _call("berths", "pilots", 2))),
             ServiceFacts(_svc("cranes"), calls=tuple(
                 ServiceCall(make_id("call", DOCK, "cranes", "tides", str(line)), service_id(DOCK, "cranes"),
                             CallKind.HTTP, "https://tides.example.org/v1", TargetKind.EXTERNAL,
                             evidence=(Evidence("cranes/tides.go", line, line),)) for line in (4, 5, 6))),
             ServiceFacts(_svc("pilots"))]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(DOCK, "/src/dock"), facts, [], [], [], documents_for(facts))
    assert [f.service for f in ask(store, "refactor to DI").primary] == ["cranes"]


def test_a_lead_of_one_link_is_a_hub() -> None:
    s = ask(_store({"berths": [("cranes", 3)], "pilots": [("cranes", 4)]}), "refactor to DI")
    assert [f.service for f in s.primary] == ["cranes"]  # called twice, the others once each


@pytest.mark.parametrize(("calls", "names"), [
    ({}, ("berths", "cranes", "pilots")),  # no links at all
    ({"berths": [("cranes", 3)], "pilots": [("quays", 4)]}, ("berths", "cranes", "pilots", "quays")),  # all tie
])
def test_no_hub_no_guess(calls: dict, names: tuple[str, ...]) -> None:
    s = ask(_store(calls, names), "refactor to DI")
    assert s.primary == () and s.secondary == ()


@pytest.mark.parametrize("task", ["Mow the lawn and trim the hedges", "glorbix wuzzle pranf"])
def test_a_task_that_is_no_software_work_still_gets_an_empty_answer(task: str) -> None:
    s = ask(_store(HUB), task)
    assert s.primary == () and s.secondary == ()


def test_a_task_naming_a_service_is_answered_by_its_name_not_by_the_hub() -> None:
    s = ask(_store(HUB), "refactor the pilots service")
    assert [f.service for f in s.primary] == ["pilots"]


def test_the_only_service_of_a_system_is_the_guess_by_its_own_rule() -> None:
    s = ask(_store({}, ("berths",)), "refactor to DI")
    (f,) = s.primary
    assert f.service == "berths" and f.confidence == RULE_RATES["only service"]
