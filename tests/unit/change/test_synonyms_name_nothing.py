"""A word code tends to use for the task's word ("buy" for an order) and an HTTP method in an API's
name are evidence, never a name: they do not make a service "named" (the most confident tier) and
do not hold an off-topic task on topic. The same word in another form ("pay" for payments) still
names the service."""

from __future__ import annotations

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.fakes.embedder import FakeEmbedder
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

REPO = "market"


def _store() -> InMemoryKnowledgeStore:
    def svc(name: str, paths: tuple[str, ...]) -> ServiceFacts:
        sid = service_id(REPO, name)
        apis = tuple(Api(make_id("api", name, "PATCH", p), sid, "PATCH", p, "update", f"{name}/app.py", 3, 4)
                     for p in paths)
        return ServiceFacts(Service(sid, name, REPO, name, "python"), apis=apis, vocabulary=("stall", "crate"))

    facts = [svc("order", ("/orders/{id}",)), svc("payments", ("/payments/{id}",)), svc("stalls", ("/stalls/{id}",))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/market"), facts, [], [], [], documents_for(facts))
    return s


def _found(surface) -> list[tuple[str, str, float]]:
    return [(f.service, f.reason, f.confidence) for f in (*surface.primary, *surface.secondary)]


def test_a_synonym_of_a_service_name_is_evidence_but_not_its_name() -> None:
    found = _found(FindChangeSurface(_store())("let people buy in bulk", record=False))
    assert [n for n, _, _ in found] == ["order"]
    _, reason, confidence = found[0]
    assert "synonym" in reason and confidence < 0.8  # named services alone are stated ~0.9


def test_the_same_word_in_another_form_still_names_the_service() -> None:
    found = _found(FindChangeSurface(_store())("let people pay in bulk", record=False))
    assert found[0][0] == "payments" and "(name)" in found[0][1] and found[0][2] >= 0.8


def test_an_http_method_in_api_names_does_not_hold_an_everyday_task_on_topic() -> None:
    s = FindChangeSurface(_store(), embedder=FakeEmbedder())("Mend the fence around the vegetable patch", record=False)
    assert s.primary == () and s.secondary == () and s.note


def _tech_store() -> InMemoryKnowledgeStore:
    from orbitkb.domain.model import Evidence, Technology

    sid = service_id(REPO, "ledger")
    tech = Technology(make_id("tech", sid, "library", "spring"), sid, "library", "org.springframework:spring-core",
                      "6.1", (Evidence("ledger/pom.xml", 9, 9),))
    facts = [ServiceFacts(Service(sid, "ledger", REPO, "ledger", "jvm-spring"), technologies=(tech,)),
             ServiceFacts(Service(service_id(REPO, "stalls"), "stalls", REPO, "stalls", "python"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/market"), facts, [], [], [], documents_for(facts))
    return s


def test_a_library_named_by_an_everyday_word_keeps_only_a_software_task_on_topic() -> None:
    find = FindChangeSurface(_tech_store(), embedder=FakeEmbedder())
    off = find("Train for the half marathon in spring", record=False)
    assert off.primary == () and off.secondary == () and off.note
    on = find("update the spring library version", record=False)
    assert [f.service for f in on.primary] == ["ledger"]
