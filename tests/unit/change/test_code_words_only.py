"""Offline abstention when only the services' code words match: an everyday sentence brushes a
word or two that some code happens to contain; a task about the system is mostly made of them,
or names one of its facts."""

from __future__ import annotations

import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

QUAY = "quay"


def _facts(name: str, vocabulary: tuple[str, ...], apis: tuple[Api, ...] = ()) -> ServiceFacts:
    return ServiceFacts(Service(service_id(QUAY, name), name, QUAY, name, "go"), apis=apis, vocabulary=vocabulary)


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    sid = service_id(QUAY, "docks")
    facts = [
        _facts("docks", ("tide", "gangway", "river", "bollard", "mooring"),
               (Api(make_id("api", "docks", "GET", "/berths"), sid, "GET", "/berths", "list_berths", "docks/api.go", 4, 9),)),
        _facts("cargo", ("pallet", "manifest", "crate", "forklift")),
        _facts("pilots", ("tugboat", "roster", "shift", "helm")),
    ]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(QUAY, "/src/quay"), facts, [], [], [], documents_for(facts))
    return s


def answered(s) -> set[str]:
    return {f.service for f in (*s.primary, *s.secondary)}


@pytest.mark.parametrize("task", ["Walk the dog along the river after dinner",
                                  "Paint the old crate red for the garden party",
                                  "Knit a scarf while the tide comes in slowly"])
def test_a_sentence_that_brushes_one_code_word_gets_an_empty_answer_with_a_note(store, task: str) -> None:
    s = FindChangeSurface(store)(task, record=False)
    assert answered(s) == set() and s.note


@pytest.mark.parametrize(("task", "expected"), [
    ("tugboat roster overlaps", {"pilots"}),  # two of three words are the code's
    ("gangway bollard", {"docks"}),
    ("river walk dinner", {"docks"}),  # a third of the words is enough
])
def test_a_task_mostly_in_the_code_words_is_answered(store, task: str, expected: set[str]) -> None:
    assert answered(FindChangeSurface(store)(task, record=False)) == expected


def test_a_fact_the_task_names_keeps_it_on_topic_however_few_words_match(store) -> None:
    s = FindChangeSurface(store)("List the berths near the lake on sunny afternoons", record=False)
    assert answered(s) == {"docks"}
