"""With an embedder, a sentence that reads plainly as everyday life is not kept on topic by one of
its words that happens to name a service or an API ("weather" in a picnic plan); a terse task
whose words name the system's facts, or that reads like software work, is still answered; and an
everyday domain that is the system's own business (a garden centre's gardening) is not life
outside it."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.topic import EVERYDAY, EVERYDAY_MARGIN, Reading, own_domains, reading
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.fakes.embedder import FakeEmbedder
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.embeddings import EmbedKnowledge

REPO = "almanac"


def _sid(name: str) -> str:
    return service_id(REPO, name)


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    # the fake embedder is close to an anchor by shared words: "weather" is a word of the everyday
    # domain "nature, gardening and weather", and also the name of a service here
    def svc(name: str, vocab: tuple[str, ...], *apis: Api) -> ServiceFacts:
        return ServiceFacts(Service(_sid(name), name, REPO, name, "go"), apis=apis, vocabulary=vocab)

    def api(name: str, method: str, path: str, handler: str) -> Api:
        return Api(make_id("api", name, method, path), _sid(name), method, path, handler, f"{name}/routes.go", 4, 9)

    facts = [svc("weather", ("isobar", "station", "gauge"), api("weather", "GET", "/alerts", "listAlerts")),
             svc("tides", ("ebb", "flood", "harbour"), api("tides", "GET", "/tables", "tideTables")),
             svc("ledger", ("invoice", "balance", "ebb"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(REPO, "/src/almanac"), facts, [], [], [], documents_for(facts))
    return s


def answered(s) -> set[str]:
    return {f.service for f in (*s.primary, *s.secondary)}


def ask(store: InMemoryKnowledgeStore, task: str):
    return FindChangeSurface(store, embedder=FakeEmbedder())(task, record=False)


def _reading(work: float, **lives: float) -> Reading:
    """A reading with these cosines to the everyday domains holding each keyword ("shopping", "pets")."""
    return Reading(work, tuple(max((v for k, v in lives.items() if k in d), default=0.0) for d in EVERYDAY))


def _domain(keyword: str) -> str:
    return next(d for d in EVERYDAY if keyword in d)


def test_a_reading_is_everyday_only_well_beyond_software_work() -> None:
    assert _reading(0.10, shopping=0.10 + EVERYDAY_MARGIN).everyday()
    assert not _reading(0.10, shopping=0.10 + EVERYDAY_MARGIN / 2).everyday()
    assert not _reading(0.30, pets=0.35).software and not _reading(0.30, pets=0.35).everyday()
    assert _reading(0.30, pets=0.10).software


def test_the_systems_own_everyday_domain_is_not_everyday_life_to_it() -> None:
    r = _reading(0.10, shopping=0.45, cooking=0.10 + EVERYDAY_MARGIN / 2)
    assert r.everyday() and not r.everyday(frozenset({_domain("shopping")}))


def test_a_task_nearest_the_systems_own_domain_is_its_business_though_another_is_near() -> None:
    # "shopping carts" in a shop: nearest shopping (its own business), and near cars too
    near_both = _reading(0.10, shopping=0.45, cars=0.10 + EVERYDAY_MARGIN)
    assert not near_both.everyday(frozenset({_domain("shopping")}))
    # nearest a domain that is not the system's own: everyday life, whatever its own domain
    assert _reading(0.10, shopping=0.30, cars=0.45).everyday(frozenset({_domain("shopping")}))


def test_a_chore_reads_as_everyday_life_and_a_bug_fix_as_software_work() -> None:
    embedder = FakeEmbedder()
    assert reading(embedder, "gardening in sunny weather").everyday()
    assert reading(embedder, "fix the bug in the tide code").software


def test_own_domains_are_those_some_indexed_fact_is_close_to() -> None:
    embedder = FakeEmbedder()
    pets = list(embedder.embed([_domain("pets")])[0])
    assert own_domains(embedder, lambda v: 0.9 if list(v) == pets else 0.1) == frozenset({_domain("pets")})
    assert own_domains(embedder, lambda v: 0.0) == frozenset()


@pytest.mark.parametrize("task", [
    "Weather permitting, a picnic by the lake with cousins",  # "weather" names a service
    "Pack a raincoat: the weather turns in the afternoon",
    "Gardening gloves and weather boots for the allotment",
    "Tables for the garden party, and pray for good weather",  # two words name facts, out of many
])
def test_an_everyday_sentence_with_one_word_naming_a_fact_gets_an_empty_answer(store, task: str) -> None:
    s = ask(store, task)
    assert answered(s) == set() and s.note


@pytest.mark.parametrize(("task", "expected"), [
    ("weather alerts", {"weather"}),  # everyday words, but every one of them names a fact
    ("weather: fix the bug in the alerts code", {"weather"}),  # reads as software work
    ("tides tables endpoint returns an error", {"tides"}),
    ("isobar station feature for the weather service", {"weather"}),
])
def test_a_terse_task_naming_the_systems_facts_is_still_answered(store, task: str, expected: set[str]) -> None:
    assert expected <= answered(ask(store, task))


def garden_centre(embedder: FakeEmbedder) -> InMemoryKnowledgeStore:
    """A system whose business is an everyday domain: its own facts are about gardening and weather."""
    def sid(name: str) -> str:
        return service_id("greenhouse", name)

    facts = [ServiceFacts(Service(sid("weather"), "weather", "greenhouse", "weather", "go",
                                  readme="Gardening weather"),
                          apis=(Api(make_id("api", "weather", "GET", "/frost"), sid("weather"), "GET", "/frost",
                                    "frostWarnings", "weather/routes.go", 3, 8, doc="Frost warnings for gardening"),)),
             ServiceFacts(Service(sid("seeds"), "seeds", "greenhouse", "seeds", "go", readme="Seed packets"))]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository("greenhouse", "/src/greenhouse"), facts, [], [], [], documents_for(facts))
    EmbedKnowledge(s, embedder)(None, facts)
    return s


def test_a_sentence_in_the_systems_own_everyday_domain_is_answered() -> None:
    # the same sentence the almanac abstains on: gardening is this system's business, not a chore to it
    embedder = FakeEmbedder()
    s = FindChangeSurface(garden_centre(embedder), embedder=embedder)(
        "Gardening gloves and weather boots for the allotment", record=False)
    assert "weather" in answered(s)


def test_a_sentence_in_another_everyday_domain_still_gets_an_empty_answer() -> None:
    embedder = FakeEmbedder()
    s = FindChangeSurface(garden_centre(embedder), embedder=embedder)(
        "Weather permitting, a picnic with the relatives and the children", record=False)
    assert answered(s) == set() and s.note


@pytest.mark.parametrize("task", [
    "mending the torn sleeve of a raincoat",  # clothes
    "the bicycles need care before the long ride",  # vehicles
    "relatives visit for the christening party",  # family, celebrations
    "civic duties at the town hall on Monday",  # errands
])
def test_activities_of_a_whole_day_read_as_everyday_life(task: str) -> None:
    # the everyday domains cover what a time-use survey sorts a day into, not a dozen broad themes:
    # mending, vehicles, relatives and civic errands each have a home
    assert reading(FakeEmbedder(), task).everyday()


def test_an_everyday_activity_naming_one_fact_gets_an_empty_answer(store) -> None:
    s = ask(store, "mending nets on the harbour wall while the tides are low")  # "tides" names a service
    assert answered(s) == set() and s.note
