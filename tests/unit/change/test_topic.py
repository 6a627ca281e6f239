"""With an embedder, the strict off-topic rule (most words must be the system's) is kept for
tasks that do not read like software work; a terse real commit message is answered."""

from __future__ import annotations

from orbitkb.domain.change.classify import RULE_RATES
from orbitkb.domain.change.topic import EVERYDAY, SOFTWARE_WORK, about_software
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.fakes.embedder import FakeEmbedder
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

REPO = "harbour"


def store() -> InMemoryKnowledgeStore:
    def svc(name: str, vocab: tuple[str, ...]) -> ServiceFacts:
        return ServiceFacts(Service(service_id(REPO, name), name, REPO, name, "python"), vocabulary=vocab)

    facts = [svc("pilots", ("pilot", "roster", "tugboat", "shift")), svc("tolls", ("toll", "tariff", "invoice")),
             svc("berths", ("berth", "mooring", "vessel")), svc("customs", ("declaration", "duty", "seal"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/harbour"), facts, [], [], [], documents_for(facts))
    return s


def test_software_work_reads_as_such_and_a_cake_does_not() -> None:
    embedder = FakeEmbedder()
    assert about_software(embedder, "Fix the bug in the refund code")
    assert about_software(embedder, "Update the library version of the build")
    assert not about_software(embedder, "Bake a chocolate cake")
    assert not about_software(embedder, "Water the plants on the balcony")


def test_a_task_closer_to_everyday_life_than_to_software_work_is_not_software_work() -> None:
    embedder = FakeEmbedder()
    # "library" and "version" are words of software work, but the rest is a holiday
    assert about_software(embedder, "update the library version")
    assert not about_software(embedder, "library visit on travel and holidays with the family")


def test_the_anchors_are_embedded_once_per_model() -> None:
    embedder = FakeEmbedder(model_id="fake/once")
    about_software(embedder, "fix the build")
    about_software(embedder, "add tests")
    assert [len(c) for c in embedder.calls] == [len(SOFTWARE_WORK) + len(EVERYDAY), 1, 1]


def test_a_terse_software_task_is_answered_with_an_embedder() -> None:
    s = FindChangeSurface(store(), embedder=FakeEmbedder())("fix the roster bug in the code harness", record=False)
    assert [f.service for f in s.primary] == ["pilots"]


def test_an_off_topic_task_brushing_a_word_of_the_code_stays_empty_with_an_embedder() -> None:
    s = FindChangeSurface(store(), embedder=FakeEmbedder())("Bake a roster cake with chocolate frosting", record=False)
    assert s.primary == () and s.secondary == () and s.note


def lone() -> InMemoryKnowledgeStore:
    facts = [ServiceFacts(Service(service_id("depot", "front-end"), "front-end", "depot", ".", "node"),
                          vocabulary=("basket", "checkout", "render"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository("depot", "/src/depot"), facts, [], [], [], documents_for(facts))
    return s


def test_the_only_service_answers_a_software_task_no_word_of_which_it_uses() -> None:
    s = FindChangeSurface(lone(), embedder=FakeEmbedder())("removed trailing slashes in the code", record=False)
    # no word matched, but a system of one service changes that service for any task about it
    # (change/classify.py RULE_RATES: the "only service" rule)
    assert [f.service for f in s.primary] == ["front-end"]
    assert s.primary[0].confidence == RULE_RATES["only service"]
    assert "only service" in s.primary[0].reason


def test_the_only_service_does_not_answer_off_topic_text_with_or_without_an_embedder() -> None:
    off = FindChangeSurface(lone(), embedder=FakeEmbedder())("Bake a chocolate cake", record=False)
    offline = FindChangeSurface(lone())("Bake a chocolate cake", record=False)
    assert off.primary == () and off.note
    assert offline.primary == () and offline.note


def test_offline_the_only_service_answers_a_task_that_reads_as_software_work() -> None:
    # without an embedder, a word of software work (change/fallback.WORK_WORDS) says what the topic is
    s = FindChangeSurface(lone())("removed trailing slashes in the code", record=False)
    assert [f.service for f in s.primary] == ["front-end"]
    assert s.primary[0].confidence == RULE_RATES["only service"]
