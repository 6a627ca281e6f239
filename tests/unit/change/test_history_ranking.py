"""The change surface reads each service's history vocabulary (the words of the commits that
changed it): among services a task's words reach, the one whose past changes were described in
those words ranks first; history alone never makes a candidate, nor an answer to nonsense."""

from __future__ import annotations

import pytest

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.candidates import retrieve
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

REPO = "quay"
SHARED = ("invoice", "amount", "total", "currency", "request", "handler")


def facts(name: str, vocab: tuple[str, ...], history: tuple[str, ...]) -> ServiceFacts:
    return ServiceFacts(Service(service_id(REPO, name), name, REPO, name, "python"), vocabulary=vocab + SHARED,
                        history=history)


def store(with_history: bool = True) -> InMemoryKnowledgeStore:
    services = [
        facts("tolls", ("tariff",), ("invoice", "invoice", "rounding", "cents", "tl") if with_history else ()),
        facts("berths", ("mooring",), ("mooring", "schedule", "berth") if with_history else ()),
        facts("pilots", ("roster",), ("roster", "shift", "wibble") if with_history else ()),
    ]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/quay"), services, [], [], [], documents_for(services))
    return s


@pytest.fixture(autouse=True)
def history_weighed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The ranking's history term is shipped at weight 0 (it did not carry over to the held-out
    repositories); these tests prove the mechanism at the weight the tune half chose."""
    monkeypatch.setattr("orbitkb.domain.change.candidates.HISTORY_WEIGHT", 4.0)


def candidates(task: str, with_history: bool = True) -> dict:
    s = store(with_history)
    cands, _ = retrieve(task, HybridRetriever(s), ServiceCatalog(s.list_services()), SystemGraph.load(s))
    return cands


@pytest.mark.parametrize("task", ["invoice amount rounding in cents", "TL: round the invoice total",
                                  "Invoice currency rounding"])
def test_the_service_whose_changes_were_described_in_the_task_words_ranks_first(task: str) -> None:
    cands = candidates(task)
    best = max(cands.values(), key=lambda c: c.score)
    assert best.service.name == "tolls" and best.history == 1.0
    assert all(c.history < 1.0 for n, c in cands.items() if n != "tolls")


def test_without_history_the_shared_words_do_not_tell_the_services_apart() -> None:
    cands = candidates("invoice amount rounding in cents", with_history=False)
    assert all(c.history == 0.0 for c in cands.values())
    assert len({round(c.score, 6) for c in cands.values()}) == 1


def test_history_alone_makes_no_candidate_and_no_answer_to_nonsense() -> None:
    assert candidates("cents schedule") == {}  # words of past commits only: no fact or code word
    s = FindChangeSurface(store())("zzqx frobnicate the wibble")
    assert s.primary == () and s.secondary == () and s.note


def test_the_reason_says_when_past_commits_used_the_task_words() -> None:
    s = FindChangeSurface(store())("invoice amount rounding in cents")
    tolls = next(f for f in (*s.primary, *s.secondary) if f.service == "tolls")
    assert "past commits were described in these words" in tolls.reason
    plain = FindChangeSurface(store(with_history=False))("invoice amount rounding in cents")
    assert not any("past commits" in f.reason for f in (*plain.primary, *plain.secondary))


def test_at_the_shipped_weight_history_explains_but_does_not_reorder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.undo()
    with_history = candidates("invoice amount rounding in cents")
    without = candidates("invoice amount rounding in cents", with_history=False)
    assert {n: round(c.score, 6) for n, c in with_history.items()} == {n: round(c.score, 6) for n, c in without.items()}
    assert with_history["tolls"].history == 1.0  # still measured: the reason can say it
