"""The listing reader in front of the SQLite store (``orbitkb list`` without SQLAlchemy) answers its
three questions exactly as the full store does — same objects, same orders — from the file alone,
and hands every other question and every file it cannot read as the current schema to the full
store, which upgrades it, refuses it or answers for an empty knowledge base."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from orbitkb.domain.errors import SchemaTooNew, StoreError
from orbitkb.domain.model import Repository, Service
from orbitkb.sql import repositories as repositories_sql
from orbitkb.sql import services as services_sql
from orbitkb.sqlite import SqliteKnowledgeStore
from orbitkb.sqlite.listing import ListingSqliteStore, columns_of, latest_version
from orbitkb.sqlite.migrations import LATEST


class Opened:
    """The full store, opened on demand and counted."""

    def __init__(self, path: str) -> None:
        self.path, self.count = path, 0

    def __call__(self) -> SqliteKnowledgeStore:
        self.count += 1
        return SqliteKnowledgeStore(self.path, read_only=True)


@pytest.fixture
def written(tmp_path: Path, samples) -> str:
    path = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(path) as store:
        samples.replace(store, "shop", [samples.service_facts("shop", n) for n in ("payments", "orders", "catalog")])
        zeta = samples.service_facts("zeta", "billing")
        samples.replace(store, "zeta", [attrs.evolve(zeta, service=attrs.evolve(zeta.service, aliases=(), evidence=()))])
        store.upsert_repository(samples.repository("empty"))
    return path


def test_the_three_questions_match_the_full_store_without_opening_it(written: str) -> None:
    full = SqliteKnowledgeStore(written, read_only=True)
    opened = Opened(written)
    listing = ListingSqliteStore(written, full=opened)
    assert listing.list_services() == full.list_services() and len(full.list_services()) == 4
    for repository in ("shop", "zeta", "empty", "nowhere"):
        assert listing.list_services(repository) == full.list_services(repository)
    assert listing.list_repositories() == full.list_repositories()
    assert listing.count_apis() == full.count_apis() and sum(listing.count_apis().values()) == 8
    assert opened.count == 0
    assert listing.list_apis() == full.list_apis() and opened.count == 1  # anything else: the full store
    listing.close()
    full.close()


def test_nested_columns_are_the_ones_the_store_writes_as_json() -> None:
    assert columns_of(Service)[1] == set(services_sql.JSON)
    assert columns_of(Repository)[1] == set(repositories_sql.JSON)
    assert latest_version() == LATEST


def test_a_missing_file_is_answered_by_the_full_store_as_an_empty_knowledge_base(tmp_path: Path) -> None:
    path = str(tmp_path / "none.db")
    listing = ListingSqliteStore(path)
    assert listing.list_repositories() == [] and listing.list_services() == [] and listing.count_apis() == {}
    assert not Path(path).exists()  # read-only: nothing created


def test_a_newer_schema_is_refused_by_the_full_store(written: str) -> None:
    with sqlite3.connect(written) as conn:
        conn.execute("UPDATE schema_meta SET value = ? WHERE key = 'version'", (str(LATEST + 1),))
    with pytest.raises(SchemaTooNew):
        ListingSqliteStore(written).list_services()


def test_a_file_orbitkb_did_not_write_is_refused_by_the_full_store(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x TEXT)")
    with pytest.raises(StoreError, match="not written by orbitkb"):
        ListingSqliteStore(str(path)).list_services()


def test_a_name_sqlite3_cannot_encode_falls_back_to_the_full_store(written: str) -> None:
    opened = Opened(written)
    assert ListingSqliteStore(written, full=opened).list_services("shop\udcff") == []
    assert opened.count == 1


def test_listing_reads_no_sqlalchemy(written: str) -> None:
    code = ("import sys\nfrom orbitkb.sqlite.listing import ListingSqliteStore\n"
            f"store = ListingSqliteStore({written!r})\n"
            "print(len(store.list_services()), 'sqlalchemy' in sys.modules)\n"
            "store.list_apis()\nprint('sqlalchemy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["4", "False", "True"], done.stderr
