"""A one-shot command's light wiring (orbitkb.bootstrap.oneshot): listing services on an SQLite
file gets the same use case the container builds, over the sqlite3 reader, without the container;
any other database, a writer, or a use case without a light wiring gets None (the caller builds
the application)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orbitkb.bootstrap import Settings, build_application, oneshot
from orbitkb.domain.errors import EmptyKnowledgeBase, RepositoryNotFound
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.usecases.listing import ListServices
from orbitkb.sqlite import SqliteKnowledgeStore
from orbitkb.sqlite.listing import ListingSqliteStore


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "kb.db")
    facts = []
    for name, stack, apis in (("ledger", "go", 2), ("billing", "python", 0), ("web", "node-ts", 1)):
        sid = service_id("acme", name)
        facts.append(ServiceFacts(Service(sid, name, "acme", name, stack),
                                  apis=tuple(Api(f"api:{name}:{i}", sid, "GET", f"/{name}/{i}", f"h{i}", "main", 1, 2)
                                             for i in range(apis))))
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(Repository("acme", "/src/acme", "none"), facts, [], [], [], [])
    return path


def test_listing_an_sqlite_file_is_wired_without_the_container(db: str) -> None:
    found = oneshot.use_case("list_services", Settings(db_path=db, read_only=True))
    assert isinstance(found, ListServices) and found.models is None
    assert isinstance(found.store, ListingSqliteStore)


def test_the_light_wiring_answers_as_the_container_does(db: str) -> None:
    light = oneshot.use_case("list_services", Settings(db_path=db, read_only=True))
    full = build_application(Settings(db_path=db, read_only=True), keep_model=False).use_cases.list_services()
    assert light() == full() and [(i.name, i.api_count) for i in light()] == [("billing", 0), ("ledger", 2), ("web", 1)]
    assert light("acme") == full("acme")
    with pytest.raises(RepositoryNotFound, match="'acm' is not indexed"):
        light("acm")


def test_a_missing_file_opens_the_full_store_and_says_it_is_empty(tmp_path: Path) -> None:
    light = oneshot.use_case("list_services", Settings(db_path=str(tmp_path / "none.db"), read_only=True))
    with pytest.raises(EmptyKnowledgeBase):
        light()


@pytest.mark.parametrize("settings", [
    {"db_path": ":memory:", "read_only": True},  # nothing on disk to read with sqlite3
    {"db_path": "postgresql://u@localhost/kb", "read_only": True},  # a server: its own store
    {"db_path": "kb.db"},  # a command that writes opens the full store
])
def test_other_databases_and_writers_get_no_light_wiring(settings: dict[str, object]) -> None:
    assert oneshot.use_case("list_services", Settings(**settings)) is None  # type: ignore[arg-type]


def test_a_use_case_without_a_light_wiring_gets_none(db: str) -> None:
    assert oneshot.use_case("describe_service", Settings(db_path=db, read_only=True)) is None
    assert oneshot.use_case("no_such_use_case", Settings(db_path=db, read_only=True)) is None
