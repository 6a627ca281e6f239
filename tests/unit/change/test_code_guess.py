"""When no fact matches a task that reads as software work, the service whose code uses its words
most is the primary, said to be a guess (its rule's measured rate, a reason, an unknowns entry);
nonsense, everyday sentences and words every service's code holds still get an empty answer, and a
task that names a fact is answered as before."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from orbitkb.domain.change.candidates import Candidate
from orbitkb.domain.change.classify import RULE_RATES, classify
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.fallback import reads_as_work
from orbitkb.domain.change.topic import EVERYDAY, SOFTWARE_WORK
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import ChangeSurface, FindChangeSurface

MILL = "mill"
EVERYWHERE = ("request", "handling", "value")


def _facts(name: str, vocabulary: tuple[str, ...]) -> ServiceFacts:
    return ServiceFacts(Service(service_id(MILL, name), name, MILL, name, "java"), vocabulary=vocabulary + EVERYWHERE)


def _store(*facts: ServiceFacts) -> InMemoryKnowledgeStore:
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(MILL, "/src/mill"), list(facts), [], [], [], documents_for(list(facts)))
    return s


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    return _store(_facts("ledger", ("journal", "posting", "working", "balance")),
                  _facts("mailer", ("template", "smtp", "bounce")),
                  _facts("scheduler", ("cron", "trigger", "calendar")))


def ask(store: InMemoryKnowledgeStore, task: str) -> ChangeSurface:
    return FindChangeSurface(store)(task, record=False)


def answered(s: ChangeSurface) -> set[str]:
    return {f.service for f in (*s.primary, *s.secondary)}


@pytest.mark.parametrize(("task", "expected"), [
    ("refactor (not working)", "ledger"),  # every content word is generic: nothing is matched at all
    ("WIP: journal cleanup, tidy the stale legacy cruft and leftovers", "ledger"),  # one code word of four: abstained on before
])
def test_a_terse_software_task_that_names_nothing_is_answered_from_the_code_words(store, task: str,
                                                                                  expected: str) -> None:
    s = ask(store, task)
    assert answered(s) == {expected}


@pytest.mark.parametrize("task", ["refactor (not working)", "WIP: journal cleanup, tidy the stale legacy cruft and leftovers"])
def test_the_guess_says_no_fact_matched_which_words_did_and_its_measured_rate(store, task: str) -> None:
    s = ask(store, task)
    (f,) = s.primary
    assert "no fact the index holds matches the task" in f.reason
    assert "working" in f.reason or "journal" in f.reason
    assert f.confidence == RULE_RATES["code words only"] < 0.8
    assert any("a guess from the words of the code" in u.reason for u in s.unknowns)


@pytest.mark.parametrize("task", [
    "glorbix wuzzle pranf",  # nonsense: no word of software work
    "refactor the glorbix wuzzle",  # software work, but no word in any code
    "cleanup: the value of stale leftovers and cruft",  # a word every service's code holds tells none apart
    "Fold the working clothes and sort the calendar",  # code words, but an everyday sentence
    "refactor (not ok)",  # the only word in some code is too short to tell (searched as a prefix)
])
def test_nonsense_everyday_sentences_and_shared_words_still_get_an_empty_answer(store, task: str) -> None:
    s = ask(store, task)
    assert answered(s) == set() and s.note


@pytest.mark.parametrize(("task", "expected"), [("refactor the journal posting balance", "ledger"),
                                              ("Cleanup: smtp bounce", "mailer")])
def test_a_task_whose_words_match_is_answered_as_before(store, task: str, expected: str) -> None:
    s = ask(store, task)
    assert answered(s) == {expected}
    assert all("no fact the index holds" not in f.reason for f in s.primary)
    assert not any("a guess from the words of the code" in u.reason for u in s.unknowns)


def test_a_system_of_one_service_is_guessed_from_any_of_its_code_words() -> None:
    one = _store(_facts("ledger", ("journal", "posting", "working")))
    assert answered(ask(one, "refactor (not working)")) == {"ledger"}
    # no code word: software work in a system of one service still changes that service (the rule
    # the embedder path follows too; change/fallback.py)
    assert answered(ask(one, "refactor the glorbix")) == {"ledger"}
    assert answered(ask(one, "glorbix wuzzle pranf")) == set()


class _ReadsAsLife:
    """An embedder to which every text reads as everyday life, never software work."""

    model_id = "life"
    dim = 2

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [[0.0, 1.0] if t in EVERYDAY else [1.0, 0.0] if t in SOFTWARE_WORK else [0.0, 1.0] for t in texts]


def test_with_an_embedder_the_task_must_also_read_as_software_work_to_it(store) -> None:
    s = FindChangeSurface(store, embedder=_ReadsAsLife())("refactor (not working)", record=False)
    assert answered(s) == set()


@pytest.mark.parametrize(("text", "work"), [("refactor (not working)", True), ("Bump the gRPC stubs", True),
                                            ("Fix the leaking kitchen tap", False),
                                            ("Return the library books before Friday", False)])
def test_a_word_of_software_work_marks_the_task(text: str, work: bool) -> None:
    assert reads_as_work(text) is work


def test_the_guess_is_the_only_finding_its_neighbours_are_not_said_to_stay_unchanged() -> None:
    def svc(name: str) -> Service:
        return Service(service_id(MILL, name), name, MILL, name, "java")
    cands = {"ledger": Candidate(svc("ledger"), score=1.0, via="code", matched_terms={"working"},
                                 note="no fact the index holds matches the task; a guess"),
             "mailer": Candidate(svc("mailer"), score=0.4, via="expansion", hops=1, reached_from="ledger")}
    found = classify(cands, 2, EvidenceIndex(InMemoryKnowledgeStore()), 3)
    assert [(f.service, f.tier, f.rule) for f in found] == [("ledger", "primary", "code words only")]
    assert found[0].confidence == RULE_RATES["code words only"]
