"""A task that names a file points at the services owning a file of that name: as telling as the
service's own name when few services own one, nothing when many do (build.gradle, main.go)."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.files import MAX_OWNERS, mentioned, owners
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.runs import IndexedFile
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

REPO = "orchard"


@pytest.mark.parametrize(("task", "expected"), [
    ("Update pears.go", ["pears.go"]),
    ("fix di.js models registration", ["di.js"]),
    ("harvest/templates/crate.html: show the weight", ["harvest/templates/crate.html"]),
    ("Create Dockerfile", ["Dockerfile"]),
    ("Tweak `settings.yaml` and README.md for the press", ["settings.yaml"]),
])
def test_file_names_are_read_from_the_task(task: str, expected: list[str]) -> None:
    assert [m for m in mentioned(task) if not m.endswith(".md")] == expected


@pytest.mark.parametrize("task", ["Bump version to 1.2.3", "use v2.0 of the client", "Add pears e.g. the green ones",
                                  "fix the thing. then ship it"])
def test_versions_abbreviations_and_sentence_ends_are_not_files(task: str) -> None:
    assert mentioned(task) == []


def _file(path: str, owner: str | None) -> IndexedFile:
    return IndexedFile(REPO, path, "0" * 64, 10, service_id(REPO, owner) if owner else None, None)


def test_a_bare_name_matches_every_file_of_that_name_and_a_path_only_its_own() -> None:
    files = [_file("pears/store/crates.go", "pears"), _file("apples/store/crates.go", "apples"),
             _file("plums/web/crates.go", "plums"), _file("shared/notes.txt", None)]
    assert set(owners(["crates.go"], files)) == {service_id(REPO, n) for n in ("pears", "apples", "plums")}
    assert owners(["apples/store/crates.go"], files) == {service_id(REPO, "apples"): ["apples/store/crates.go"]}
    assert owners(["store/crates.go"], files).keys() == {service_id(REPO, "pears"), service_id(REPO, "apples")}


def test_a_name_too_many_services_own_names_none_of_them() -> None:
    files = [_file(f"s{i}/main.go", f"s{i}") for i in range(MAX_OWNERS + 1)]
    assert owners(["main.go"], files) == {}


def _store() -> InMemoryKnowledgeStore:
    names = ("pears", "apples", "plums", "press")
    facts = [ServiceFacts(Service(service_id(REPO, n), n, REPO, n, "go"), vocabulary=("fruit", "crate", "weight"))
             for n in names]
    files = [_file("pears/ripeness.go", "pears"), _file("apples/main.go", "apples"), _file("plums/main.go", "plums"),
             _file("press/main.go", "press"), _file("pears/main.go", "pears")]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/orchard"), facts, [], [], files, documents_for(facts))
    return s


def test_a_task_naming_a_file_finds_the_service_that_owns_it() -> None:
    s = FindChangeSurface(_store())("Update ripeness.go", record=False)
    assert [f.service for f in s.primary] == ["pears"]
    assert "ripeness.go" in s.primary[0].reason


def test_a_file_every_service_has_points_at_none() -> None:
    s = FindChangeSurface(_store())("Update main.go", record=False)
    assert not [f for f in (*s.primary, *s.secondary) if "names its file" in f.reason]
