"""The learned mix's ``degree`` counts the other services a candidate is linked to, each once: a
service that calls one neighbour from many places is no bigger a hub for it than one that calls
it once (more call facts from better analyzers must not move the ranking). A guess still finds
the hub by its call sites (``links``)."""

from __future__ import annotations

import math

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.candidates import retrieve
from orbitkb.domain.change.fallback import links, neighbours
from orbitkb.domain.change.ranking import features
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Direction,
    Evidence,
    Message,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.search_docs import documents_for

FARM = "farm"


def _svc(name: str) -> Service:
    return Service(service_id(FARM, name), name, FARM, name, "kotlin")


def _call(a: str, b: str, line: int) -> ServiceCall:
    return ServiceCall(make_id("call", FARM, a, b, str(line)), service_id(FARM, a), CallKind.HTTP, b,
                       TargetKind.INTERNAL, to_service_id=service_id(FARM, b), evidence=(Evidence(f"{a}/c.kt", line, line),))


def _msg(svc: str, direction: Direction, channel: str) -> Message:
    return Message(make_id("msg", FARM, svc, direction, channel), service_id(FARM, svc), direction, channel, "kafka",
                   evidence=(Evidence(f"{svc}/events.kt", 2, 2),))


def _store() -> InMemoryKnowledgeStore:
    # harvest calls silos from four places, reaches tractors once, and publishes what weather consumes;
    # silos calls harvest back: harvest is linked to three services by six call sites and a message
    facts = [
        ServiceFacts(_svc("harvest"), calls=(*(_call("harvest", "silos", n) for n in (1, 2, 3, 4)),
                                             _call("harvest", "tractors", 5)),
                     messages=(_msg("harvest", Direction.PUBLISHES, "crop-ready"),)),
        ServiceFacts(_svc("silos"), calls=(_call("silos", "harvest", 9),)),
        ServiceFacts(_svc("tractors")),
        ServiceFacts(_svc("weather"), messages=(_msg("weather", Direction.CONSUMES, "crop-ready"),)),
    ]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(FARM, "/src/farm"), facts, [], [], [], documents_for(facts))
    return store


def test_neighbours_count_each_linked_service_once_and_links_count_every_site() -> None:
    store = _store()
    graph = SystemGraph.load(store)
    harvest = next(s for s in store.list_services() if s.name == "harvest")
    assert neighbours(graph, harvest) == 3  # silos (both ways), tractors, weather
    assert links(graph, harvest) == 7  # 5 calls out, 1 message link out, 1 call in


def test_the_learned_mix_sees_distinct_neighbours_not_call_sites() -> None:
    store = _store()
    cands, _ = retrieve("Change the harvest schedule", HybridRetriever(store, None),
                        ServiceCatalog(store.list_services()), SystemGraph.load(store))
    harvest = cands["harvest"]
    assert (harvest.degree, harvest.links) == (3, 7)
    assert features([harvest], 2, 4)["harvest"]["degree"] == math.log1p(3)


def test_a_leaf_has_no_neighbours() -> None:
    store = _store()
    graph = SystemGraph.load(store)
    tractors = next(s for s in store.list_services() if s.name == "tractors")
    assert neighbours(graph, tractors) == 1 and links(graph, tractors) == 1
    lonely = Service(service_id(FARM, "barn"), "barn", FARM, "barn", "kotlin")
    assert neighbours(graph, lonely) == 0 and links(graph, lonely) == 0
