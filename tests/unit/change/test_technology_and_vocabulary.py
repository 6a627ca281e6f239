"""The change surface reads technology facts (a task naming a library or a stack selects the
services that use it), the words of each service's source, and abstains on weak evidence."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.classify import RULE_RATES
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Evidence, Repository, Service, ServiceFacts, Technology
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

REPO = "harbour"
COMMON = ("value", "result", "request", "handler", "write", "config", "item", "list")


def facts(name: str, stack: str, techs: list[tuple[str, str]], vocab: tuple[str, ...]) -> ServiceFacts:
    sid = service_id(REPO, name)
    technologies = tuple(Technology(make_id("tech", sid, k, n), sid, k, n, None, (Evidence(f"{name}/build", 3, 3),))
                         for k, n in techs)
    return ServiceFacts(Service(sid, name, REPO, name, stack), technologies=technologies,
                        vocabulary=vocab + COMMON)


def store() -> InMemoryKnowledgeStore:
    services = [
        facts("berths", "jvm-spring", [("language", "java"), ("library", "org.projectlombok:lombok"),
                                       ("build_tool", "maven")], ("berth", "mooring", "vessel")),
        facts("tolls", "jvm-spring", [("language", "java"), ("library", "org.projectlombok:lombok"),
                                      ("build_tool", "maven")], ("toll", "tariff", "invoice")),
        facts("manifests", "node-ts", [("language", "javascript"), ("library", "winston"),
                                       ("framework", "express")], ("cargo", "container", "manifest")),
        facts("pilots", "python", [("language", "python"), ("library", "fastapi"), ("base_image", "python")],
              ("pilot", "roster", "tugboat", "shift")),
    ]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/harbour"), services, [], [], [], documents_for(services))
    return s


def chosen(surface) -> set[str]:
    return {f.service for f in (*surface.primary, *surface.secondary)}


def test_a_library_named_by_the_task_selects_every_service_that_declares_it() -> None:
    s = FindChangeSurface(store())("Get rid of Lombok")
    assert chosen(s) == {"berths", "tolls"}
    assert all("technology" in f.reason for f in s.primary)
    assert all(f.evidence for f in s.primary)


def test_a_language_word_does_not_match_a_longer_one() -> None:
    s = FindChangeSurface(store())("Upgrade the Java version to 21")
    assert chosen(s) == {"berths", "tolls"}  # not the javascript service


def test_a_logging_library_switch_finds_its_user() -> None:
    assert chosen(FindChangeSurface(store())("Replace winston with pino")) == {"manifests"}


def test_a_word_that_lives_only_in_the_source_is_enough_when_it_is_rare() -> None:
    assert chosen(FindChangeSurface(store())("tugboat roster overlaps")) == {"pilots"}


@pytest.mark.parametrize("task", ["zzqx frobnicate the wibble", "Bake a chocolate cake",
                                  "What is the capital of France?", "Translate the poem into Latin"])
def test_off_topic_tasks_give_an_empty_answer_with_a_note(task: str) -> None:
    s = FindChangeSurface(store())(task)
    assert s.primary == () and s.secondary == () and s.note


@pytest.mark.parametrize("task", ["write the value", "handler result list"])
def test_words_every_service_uses_give_one_guess_said_to_be_a_guess(task: str) -> None:
    s = FindChangeSurface(store())(task)
    assert len(s.primary) == 1 and s.secondary == ()
    # a guess is stated as often as such guesses were right (change/classify.py RULE_RATES), below
    # the >= 0.8 a service the task names earns
    assert s.primary[0].confidence == RULE_RATES["weak guess, most"] < 0.8
    assert "source code" in s.primary[0].reason and "a guess" in s.primary[0].reason
