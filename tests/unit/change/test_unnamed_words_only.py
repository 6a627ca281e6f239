"""Offline abstention when no fact is named and the words that match at all are few: an everyday
sentence brushes a word of an entity's keywords ("table"), of a description, a synonym of a
service's name ("purchase" for orders) or an HTTP method ("patch"), but never most of its words;
a task about the system names one of its facts or is mostly made of its words."""

from __future__ import annotations

import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Component, PersistenceEntity, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

TRAM = "tramways"


def _sid(name: str) -> str:
    return service_id(TRAM, name)


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    def svc(name: str, readme: str) -> Service:
        return Service(_sid(name), name, TRAM, name, "java", "spring", readme=readme)

    facts = [
        ServiceFacts(svc("timetable", "Publishes departure times for every stop of the network."),
                     apis=(Api(make_id("api", "timetable", "PATCH", "/departures/{id}"), _sid("timetable"), "PATCH",
                               "/departures/{id}", "shiftDeparture", "timetable/Api.java", 3, 9,
                               doc="Move a departure when a line is delayed."),),
                     entities=(PersistenceEntity(make_id("ent", "timetable", "departures"), _sid("timetable"),
                                                 "departures", "sql_table", "postgres", "Departure"),)),
        ServiceFacts(svc("fares", "Sells tickets and season passes, and keeps the fare zones."),
                     entities=(PersistenceEntity(make_id("ent", "fares", "zones"), _sid("fares"), "zones",
                                                 "key_value", "redis", "FareZone"),),
                     apis=(Api(make_id("api", "fares", "POST", "/orders"), _sid("fares"), "POST", "/orders",
                               "placeOrder", "fares/Api.java", 12, 20),),
                     components=(Component(make_id("cmp", "fares", "ZonePricer"), _sid("fares"), "ZonePricer",
                                           "fares/ZonePricer.java",
                                           doc="Prices a journey across the fare zones it crosses."),)),
        ServiceFacts(svc("depot", "Tracks which tram sits in which depot bay overnight."),
                     components=(Component(make_id("cmp", "depot", "Lampkeeper"), _sid("depot"), "Lampkeeper",
                                           "depot/Lampkeeper.java"),),
                     vocabulary=("shunting", "siding", "gust", "bay")),
    ]
    s = InMemoryKnowledgeStore()
    s.replace_repository_facts(Repository(TRAM, "/src/tramways"), facts, [], [], [], documents_for(facts))
    return s


def answered(s) -> set[str]:
    return {f.service for f in (*s.primary, *s.secondary)}


@pytest.mark.parametrize("task", [
    "Lay the picnic table under the chestnut tree",  # "table": a keyword of every SQL entity
    "Patch the elbow of the old wool jumper",  # "patch": an HTTP method of one API
    "Purchase a kite for the nephew's windy birthday",  # "purchase": a synonym of "order" (an API)
    "Bring the journey photos to grandfather on Thursday",  # "journey": one component's description
])
def test_a_sentence_brushing_one_unnamed_word_gets_an_empty_answer_with_a_note(store, task: str) -> None:
    s = FindChangeSurface(store)(task, record=False)
    assert answered(s) == set() and s.note


@pytest.mark.parametrize(("task", "expected"), [
    ("delayed line departure shift", {"timetable"}),  # most words are the system's
    ("journey crosses zones", {"fares"}),
    ("wrong season pass price", {"fares"}),  # a third of the words is enough
])
def test_a_task_made_of_the_systems_words_is_answered(store, task: str, expected: set[str]) -> None:
    assert expected <= answered(FindChangeSurface(store)(task, record=False))


@pytest.mark.parametrize(("task", "expected"), [
    ("Rename the departures table column to planned_at while the tea brews", {"timetable"}),
    ("ZonePricer rounds the birthday discount the wrong way for pensioners", {"fares"}),
    ("the depot service crashes on Sunday mornings before the first tram leaves", {"depot"}),
])
def test_a_named_fact_keeps_a_task_on_topic_however_few_words_match(store, task: str, expected: set[str]) -> None:
    assert expected <= answered(FindChangeSurface(store)(task, record=False))



@pytest.mark.parametrize("task", ["Lamp oil for the camping trip in August",
                                  "Dust the lamp shade in the reading corner"])
def test_a_word_that_only_begins_a_longer_word_of_a_name_names_nothing(store, task: str) -> None:
    # "lamp" begins Lampkeeper: the search finds it, but the task does not name it
    s = FindChangeSurface(store)(task, record=False)
    assert answered(s) == set() and s.note


def test_a_name_written_whole_still_names_its_service(store) -> None:
    s = FindChangeSurface(store)("Lampkeeper skips the last bay on Sunday evenings after the storm", record=False)
    assert answered(s) == {"depot"}
