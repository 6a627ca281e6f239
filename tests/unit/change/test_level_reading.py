"""A reading nearly level between software work and everyday life (topic.SOFTWARE_MARGIN) is software
work only when a word of the task marks it so: a chore whose verb code also uses ("replace the
worn tyre") is not answered by a word of the code or by the only service of a system."""

from __future__ import annotations

import math
from collections.abc import Sequence

from orbitkb.domain.change.topic import (
    EVERYDAY,
    SOFTWARE_MARGIN,
    SOFTWARE_TOPIC,
    SOFTWARE_WORK,
    about_software,
)
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface


def _unit(*xs: float) -> tuple[float, ...]:
    n = math.sqrt(sum(x * x for x in xs))
    return tuple(x / n for x in xs)


def _leaning(work: float, life: float) -> tuple[float, ...]:
    """A vector whose cosine is ``work`` to every kind of software work and ``life`` to every
    everyday domain (the anchors are two orthogonal axes)."""
    return (work, life, math.sqrt(1 - work * work - life * life))


class TableEmbedder:
    """Software-work anchors on one axis, everyday domains on another, tasks where the test puts them."""

    def __init__(self, tasks: dict[str, tuple[float, ...]], model_id: str) -> None:
        self.tasks = tasks
        self._model_id = model_id

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dim(self) -> int:
        return 3

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]:
        def one(text: str) -> tuple[float, ...]:
            if text in SOFTWARE_WORK:
                return _unit(1, 0, 0)
            if text in EVERYDAY:
                return _unit(0, 1, 0)
            return self.tasks.get(text, _unit(0, 0, 1))
        return [one(t) for t in texts]


LEVEL = SOFTWARE_MARGIN / 2  # software work ahead, but by less than the margin
CHORE = "replace the worn tyre of the tandem"
WORKED = "replace the worn handler of the config"  # "config": a word of software work
PLAIN = "replace the worn tyre in the code"  # "code": a word of software work


def table(model_id: str) -> TableEmbedder:
    return TableEmbedder({CHORE: _leaning(0.30, 0.30 - LEVEL), WORKED: _leaning(0.30, 0.30 - LEVEL),
                          PLAIN: _leaning(0.40, 0.30), "rotate the tyres": _leaning(0.30, 0.30 - 2 * SOFTWARE_MARGIN)},
                         model_id)


def test_a_level_reading_is_software_work_only_with_a_word_of_software_work() -> None:
    embedder = table("table/level")
    assert SOFTWARE_TOPIC <= 0.30
    assert not about_software(embedder, CHORE)
    assert about_software(embedder, WORKED)
    assert about_software(embedder, PLAIN)
    # clearly ahead: software work without any word of it
    assert about_software(embedder, "rotate the tyres")


def _system(names: tuple[str, ...]) -> InMemoryKnowledgeStore:
    facts = [ServiceFacts(Service(service_id("cycleworks", n), n, "cycleworks", n, "java"),
                          vocabulary=("tyre", "stream") if n == names[0] else ("ledger", "audit"))
             for n in names]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository("cycleworks", "/src/cycleworks"), facts, [], [], [], documents_for(facts))
    return s


def test_the_only_service_does_not_answer_a_level_chore() -> None:
    chore = FindChangeSurface(_system(("workshop",)), embedder=table("table/lone"))(CHORE, record=False)
    work = FindChangeSurface(_system(("workshop",)), embedder=table("table/lone2"))(WORKED, record=False)
    assert chore.primary == () and chore.secondary == () and chore.note
    assert [f.service for f in work.primary] == ["workshop"]


def test_a_word_of_the_code_does_not_answer_a_level_chore() -> None:
    surface = FindChangeSurface(_system(("workshop", "billing")), embedder=table("table/code"))(CHORE, record=False)
    assert surface.primary == () and surface.secondary == () and surface.note
