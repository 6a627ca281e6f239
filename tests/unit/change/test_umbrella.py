"""A service declared by its image alone whose folder holds other services' folders (an edge proxy
in the root compose file) does not own the code beside it: its words are no evidence that it changes.
A service with code of its own at the root, or an image-only service in a folder of its own, keeps
its source words."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.umbrella import encloses, umbrellas
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

ORCHARD = "orchard"


def _svc(name: str, root: str, stack: str = "python", repository: str = ORCHARD) -> Service:
    return Service(service_id(repository, name), name, repository, root, stack)


@pytest.mark.parametrize(("root", "other", "held"), [(".", "pickers", True), ("", "pickers/app", True),
                                                      ("./", "pickers", True), ("edge", "edge/inner", True),
                                                      ("edge", "edge-inner", False), ("pickers", "pickers", False),
                                                      ("pickers/app", "pickers", False)])
def test_a_folder_holds_the_folders_below_it(root: str, other: str, held: bool) -> None:
    assert encloses(root, other) is held


def test_only_an_image_only_service_over_other_services_is_an_umbrella() -> None:
    services = [_svc("gate", ".", "other"), _svc("pickers", "pickers"), _svc("crates", "crates", "go"),
                _svc("cider-press", ".", "node-ts"),  # code of its own at the root
                _svc("cache", "cache", "other"),  # an image in a folder of its own
                _svc("lonely", ".", "other", repository="elsewhere")]  # nothing of its repository below it
    assert umbrellas(services) == {"gate"}


def _store(gate_root: str) -> InMemoryKnowledgeStore:
    facts = [ServiceFacts(_svc("gate", gate_root, "other"), vocabulary=("prune", "ladder", "blossom", "season")),
             ServiceFacts(_svc("pickers", "pickers"), vocabulary=("ladder", "basket", "prune", "shift")),
             ServiceFacts(_svc("crates", "crates", "go"), vocabulary=("crate", "pallet", "weight"))]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(ORCHARD, "/src/orchard"), facts, [], [], [], documents_for(facts))
    return store


def _answered(store: InMemoryKnowledgeStore, task: str) -> set[str]:
    s = FindChangeSurface(store)(task, record=False)
    return {f.service for f in (*s.primary, *s.secondary, *s.no_change_hint)}


def test_the_code_beside_a_root_proxy_is_not_its_evidence() -> None:
    got = _answered(_store("."), "prune the blossom ladder each season")
    assert "gate" not in got and "pickers" in got


def test_an_image_only_service_in_a_folder_of_its_own_keeps_its_words() -> None:
    assert "gate" in _answered(_store("gate"), "prune the blossom ladder each season")
