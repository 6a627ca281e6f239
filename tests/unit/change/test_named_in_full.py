"""A task names a service only when it holds that service's name in full (change/fullnames.py): one
word several names share ("orders" of orders-intake and orders-archive), a shorter name inside a
longer one the task holds ("portal" inside "new portal"), or the prefix most of a system's names
carry, names none of them — such a service is evidence, never "named" (kept in the answer, 0.88
sure, lifted by its neighbours' calls)."""

from __future__ import annotations

import pytest

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change.candidates import retrieve
from orbitkb.domain.change.fullnames import named_in_full, system_words
from orbitkb.domain.change.naming import NameMatch
from orbitkb.domain.change.ranking import named
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

HARBOUR = "harbour"


def _svc(name: str, *aliases: str, readme: str = "") -> Service:
    return Service(service_id(HARBOUR, name), name, HARBOUR, name, "python", readme=readme, aliases=aliases)


def _names(task: str, *services: Service, loose: tuple[NameMatch, ...] = ()) -> set[str]:
    return set(named_in_full(task, services, loose))


@pytest.mark.parametrize(("task", "expected"), [
    ("Show the orders archive to auditors", {"orders-archive"}),
    ("orders intake drops the last line", {"orders-intake"}),
    ("Rename a column of the orders table", set()),  # a word both names share names neither
    ("archive and intake of orders both log twice", {"orders-archive", "orders-intake"}),
])
def test_a_word_several_names_share_names_none_of_them(task: str, expected: set[str]) -> None:
    got = _names(task, _svc("orders-intake"), _svc("orders-archive"), _svc("tides"))
    assert got == expected


def test_the_longest_name_the_task_holds_wins() -> None:
    portals = (_svc("portal"), _svc("new-portal"), _svc("tides"))
    assert _names("Add a sign-in form to the new portal", *portals) == {"new-portal"}
    assert _names("Add a sign-in form to the portal", *portals) == {"portal"}


def test_decoration_is_not_needed_and_an_alias_counts() -> None:
    services = (_svc("berth-service"), _svc("crane-api"), _svc("gate-keeper", "gatekeeper-svc"))
    assert _names("berth slots overlap", *services) == {"berth-service"}
    assert _names("crane moves are slow", *services) == {"crane-api"}
    assert _names("the gatekeeper rejects trucks", *services) == {"gate-keeper"}
    # "gate" alone is half of gate-keeper's name
    assert _names("open the gate earlier", *services) == set()


def test_the_prefix_most_names_carry_names_the_system_not_a_service() -> None:
    services = (_svc("quay-berths"), _svc("quay-cranes"), _svc("quay-gates"), _svc("tides"))
    assert system_words(services) == frozenset({"quay"})
    assert _names("berths overlap at night", *services) == {"quay-berths"}
    assert _names("quay lighting schedule", *services) == set()
    # with fewer than three services no word is the system's
    assert system_words(services[:2]) == frozenset()


def test_twins_in_two_languages_are_named_only_with_their_language() -> None:
    twins = (_svc("kotlin-ledger"), _svc("rust-ledger"), _svc("kotlin-tolls"), _svc("rust-tolls"), _svc("tides"))
    assert _names("ledger totals are off by one", *twins) == set()
    assert _names("rust ledger totals are off by one", *twins) == {"rust-ledger"}


def test_a_loosely_named_service_counts_as_named_in_full() -> None:
    services = (_svc("orders-intake"), _svc("orders-archive"), _svc("tides"))
    run_together = NameMatch("orders-archive", "ordersarchive", "compact")
    assert _names("ordersarchive misses rows", *services, loose=(run_together,)) == {"orders-archive"}


def test_a_shortened_word_stands_for_its_word_and_the_rest_of_the_name_must_be_there() -> None:
    services = (_svc("dock-scheduler"), _svc("tides"), _svc("gates"))
    short = NameMatch("dock-scheduler", "sched", "prefix")
    assert _names("dock sched runs twice", *services, loose=(short,)) == {"dock-scheduler"}
    assert _names("the sched runs twice", *services, loose=(short,)) == set()


def _store() -> InMemoryKnowledgeStore:
    def api(svc: str, path: str, handler: str) -> Api:
        return Api(make_id("api", svc, "GET", path), service_id(HARBOUR, svc), "GET", path, handler, f"{svc}/app.py", 3, 4)

    facts = [
        ServiceFacts(_svc("cargo-manifests", readme="Cargo manifests lists what each vessel carries."),
                     apis=(api("cargo-manifests", "/manifests/{id}", "get_manifest"),)),
        ServiceFacts(_svc("cargo-customs", readme="Cargo customs clears declarations with the authority."),
                     apis=(api("cargo-customs", "/declarations", "list_declarations"),)),
        ServiceFacts(_svc("cargo-weights", readme="Cargo weights records scale readings."),
                     apis=(api("cargo-weights", "/readings", "list_readings"),)),
        ServiceFacts(_svc("pilot-bookings", readme="Books harbour pilots for arriving vessels."),
                     apis=(api("pilot-bookings", "/bookings", "list_bookings"),)),
    ]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(HARBOUR, "/src/harbour"), facts, [], [], [], documents_for(facts))
    return store


def _candidates(task: str) -> dict[str, bool]:
    store = _store()
    cands, _ = retrieve(task, HybridRetriever(store), ServiceCatalog(store.list_services()), SystemGraph.load(store))
    return {name: named(c) for name, c in cands.items() if c.via == "match"}


def test_retrieval_marks_a_service_named_by_a_shared_word_as_named_in_part() -> None:
    got = _candidates("cargo manifests show the wrong vessel")
    assert got["cargo-manifests"] is True
    assert got.get("cargo-customs") is not True and got.get("cargo-weights") is not True


def test_a_shared_word_alone_does_not_put_every_service_it_touches_in_the_answer() -> None:
    answer = FindChangeSurface(_store())("Show cargo manifests per vessel", record=False)
    assert [f.service for f in answer.primary] == ["cargo-manifests"]
    assert answer.primary[0].confidence >= 0.8
    assert not {"cargo-customs", "cargo-weights"} & {f.service for f in answer.secondary}


def test_a_service_named_by_half_its_name_is_not_stated_as_sure() -> None:
    answer = FindChangeSurface(_store())("pilot pages load slowly", record=False)
    assert [f.service for f in answer.primary] == ["pilot-bookings"]
    assert answer.primary[0].confidence < 0.8
    assert "a word its name shares, not its whole name" in answer.primary[0].reason
    full = FindChangeSurface(_store())("pilot bookings pages load slowly", record=False)
    assert full.primary[0].service == "pilot-bookings" and full.primary[0].confidence >= 0.8


def test_the_service_inside_a_longer_name_the_task_holds_is_not_named_beside_it() -> None:
    def portal(name: str, readme: str) -> ServiceFacts:
        return ServiceFacts(_svc(name, readme=readme), apis=(Api(make_id("api", name, "GET", "/home"), service_id(
            HARBOUR, name), "GET", "/home", "home", f"{name}/app.py", 3, 4),))

    facts = [portal("portal", "The old web pages for shipping agents."),
             portal("new-portal", "The web pages for shipping agents, rebuilt."),
             portal("tides", "Tide tables for the pilots.")]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(HARBOUR, "/src/harbour"), facts, [], [], [], documents_for(facts))
    answer = FindChangeSurface(store)("Add a sign-in form to the new portal", record=False)
    found = {f.service: f for f in (*answer.primary, *answer.secondary)}
    assert answer.primary[0].service == "new-portal"
    # the old portal is at most a runner-up the words reach, far less sure than the one named
    assert "portal" not in found or found["portal"].confidence <= found["new-portal"].confidence - 0.3


