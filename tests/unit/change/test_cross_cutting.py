"""Build and deployment work that names no service ("Add Kubernetes manifests", "Upgrade the Gradle
wrapper", "Fix the CI pipeline") changes every service it builds or ships: the services with the
technology it names (a container base image, a Gradle or Maven build; every service for CI) join the
answer as secondaries at the rule's measured rate. A task naming a service, everyday "build" and
nonsense are answered as before."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.classify import RULE_RATES
from orbitkb.domain.change.crosscut import cross_cutting_words
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts, Technology
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import ChangeSurface, FindChangeSurface

HARBOUR = "harbour"
#: each service: its technologies (kind, name) and the words of its code
FLEET = {
    "berths": ((("build_tool", "gradle"), ("base_image", "eclipse-temurin:17")), ("berth", "mooring", "slot")),
    "cranes": ((("build_tool", "gradle"), ("base_image", "eclipse-temurin:17")), ("crane", "lift", "load")),
    "pilots": ((("build_tool", "maven"),), ("pilot", "roster", "tide")),
}


def _store(fleet: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = FLEET) -> InMemoryKnowledgeStore:
    facts = []
    for name, (techs, vocabulary) in fleet.items():
        sid = service_id(HARBOUR, name)
        facts.append(ServiceFacts(
            Service(sid, name, HARBOUR, name, "jvm-spring"), vocabulary=vocabulary,
            technologies=tuple(Technology(make_id("tech", name, k, n), sid, k, n) for k, n in techs)))
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(HARBOUR, "/src/harbour"), facts, [], [], [], documents_for(facts))
    return store


def ask(task: str, store: InMemoryKnowledgeStore | None = None) -> ChangeSurface:
    return FindChangeSurface(store or _store())(task, record=False)


def answered(s: ChangeSurface) -> set[str]:
    return {f.service for f in (*s.primary, *s.secondary)}


@pytest.mark.parametrize("task", ["Added k8s support", "Dockerize the stack for swarm",
                                  "docker-compose and Kubernetes manifests"])
def test_deployment_work_naming_no_service_selects_the_services_shipped_as_images(task: str) -> None:
    s = ask(task)
    assert answered(s) == {"berths", "cranes"}
    for f in s.secondary:
        assert f.confidence == RULE_RATES["cross-cutting"] and "build or deployment work" in f.reason


@pytest.mark.parametrize(("task", "expected"), [("Upgraded Gradle to the next major", {"berths", "cranes"}),
                                                ("Remove the .mvn folder and tidy the pom", {"pilots"})])
def test_a_build_tool_selects_the_services_it_builds(task: str, expected: set[str]) -> None:
    assert answered(ask(task)) == expected


def test_ci_work_selects_every_service() -> None:
    assert answered(ask("Update Circle CI")) == {"berths", "cranes", "pilots"}


def test_without_the_named_technology_every_service_is_selected() -> None:
    bare = {name: ((), words) for name, (_, words) in FLEET.items()}
    assert answered(ask("Run the examples on Kubernetes", _store(bare))) == {"berths", "cranes", "pilots"}


def test_a_task_naming_a_service_means_that_service_s_build() -> None:
    assert answered(ask("Dockerize the cranes service")) == {"cranes"}


@pytest.mark.parametrize("task", ["build the mooring slot summary", "zzqx frobnicate the wibble",
                                  "Compose a sea shanty about the pipeline"])
def test_everyday_build_and_nonsense_are_answered_as_before(task: str) -> None:
    s = ask(task)
    assert not any(f.rule == "cross-cutting" or "build or deployment work" in f.reason for f in s.secondary)
    if not task.startswith("build"):
        assert answered(s) == set() and s.note


def test_a_system_of_one_service_ships_that_service_and_keeps_its_own_rule_when_words_match() -> None:
    one = _store({"berths": FLEET["berths"]})
    assert [(f.service, f.confidence) for f in ask("Added k8s support", one).secondary] == [
        ("berths", RULE_RATES["cross-cutting"])]
    s = ask("Dockerize the mooring slot", one)
    assert [(f.service, f.confidence) for f in s.primary] == [("berths", RULE_RATES["only service"])]
    assert s.secondary == ()


@pytest.mark.parametrize(("task", "words"), [("Added k8s support", ["k8s"]),
                                             ("docker-compose.yml for Swarm", ["docker"]),
                                             ("Compose a shanty about the swarm at the helm", []),
                                             ("Use GitHub Actions for CI", ["ci"]),
                                             ("build and deploy the invoice page", [])])
def test_the_words_of_build_and_deployment_work(task: str, words: list[str]) -> None:
    assert cross_cutting_words(task) == words
