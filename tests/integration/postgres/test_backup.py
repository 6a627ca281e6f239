"""Backup and restore of a knowledge base on PostgreSQL: one checked SQLite backup file, taken as
one snapshot, restored in one transaction (the previous knowledge base kept beside the file), into
either store; bad files refused before anything changes."""

from __future__ import annotations

import sqlite3
import threading

import pytest
import sqlalchemy as sa

from orbitkb.bootstrap.factories import make_backups
from orbitkb.bootstrap.server_backups import ServerBackups
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.errors import InvalidInput, RepositoryConflict, SchemaTooNew, StoreError
from orbitkb.domain.runs import IndexRun
from orbitkb.postgres import PostgresKnowledgeStore
from orbitkb.sqlite import SqliteKnowledgeStore
from orbitkb.sqlite.backup import SqliteBackups
from tests.contract.conftest import replace, service_facts


def _fill(url: str, repo: str = "shop", names: tuple[str, ...] = ("orders", "billing")) -> None:
    with PostgresKnowledgeStore(url) as store:
        replace(store, repo, [service_facts(repo, n) for n in names])
        store.add_index_run(IndexRun(None, repo, "t0", "t1", "ok", backend="offline"))


def _what(store) -> tuple:
    return (sorted(s.id for s in store.list_services()), [r.name for r in store.list_repositories()],
            [h.ref_id for h in store.search(["orders"], 10)], len(store.list_index_runs()))


def test_a_server_is_backed_up_by_a_logical_copy(postgres_url):
    assert isinstance(make_backups(Settings(db_path=postgres_url)), ServerBackups)


def test_a_backup_is_a_checked_sqlite_file_holding_everything(postgres_url, tmp_path):
    _fill(postgres_url)
    report = make_backups(Settings(db_path=postgres_url)).backup(str(tmp_path / "kb.backup"))
    assert report.repositories == ("shop",) and report.bytes > 0
    with open(tmp_path / "kb.backup", "rb") as fh:
        assert fh.read(16) == b"SQLite format 3\x00"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb.backup"]  # no partial, no -wal left
    with PostgresKnowledgeStore(postgres_url) as live, SqliteKnowledgeStore(str(tmp_path / "kb.backup")) as copy:
        assert _what(copy) == _what(live)


def test_a_backup_refuses_an_existing_file_without_force(postgres_url, tmp_path):
    _fill(postgres_url)
    (tmp_path / "kb.backup").write_text("mine")
    backups = make_backups(Settings(db_path=postgres_url))
    with pytest.raises(RepositoryConflict):
        backups.backup(str(tmp_path / "kb.backup"))
    assert (tmp_path / "kb.backup").read_text() == "mine"
    backups.backup(str(tmp_path / "kb.backup"), overwrite=True)
    assert (tmp_path / "kb.backup").read_bytes().startswith(b"SQLite format 3")


def test_a_restore_replaces_everything_and_keeps_the_previous_knowledge_base(postgres_cluster, tmp_path):
    first, second = postgres_cluster.create_database(), postgres_cluster.create_database()
    _fill(first, "shop", ("orders", "billing"))
    _fill(second, "mall", ("carts",))
    make_backups(Settings(db_path=first)).backup(str(tmp_path / "shop.backup"))
    report = make_backups(Settings(db_path=second)).restore(str(tmp_path / "shop.backup"))
    assert report.repositories == ("shop",) and "@" not in report.path
    with PostgresKnowledgeStore(first) as a, PostgresKnowledgeStore(second) as b:
        assert _what(b) == _what(a)
        assert b.search(["carts"]) == []  # nothing of the replaced knowledge base is left
        b.add_index_run(IndexRun(None, "shop", "t2"))  # the sequences continue past the restored ids
    assert report.previous_copy and report.previous_copy.startswith(str(tmp_path))
    with SqliteKnowledgeStore(report.previous_copy) as kept:
        assert [r.name for r in kept.list_repositories()] == ["mall"]


def test_a_restore_into_an_empty_database_keeps_no_previous_copy(postgres_cluster, tmp_path):
    source, empty = postgres_cluster.create_database(), postgres_cluster.create_database()
    _fill(source)
    make_backups(Settings(db_path=source)).backup(str(tmp_path / "kb.backup"))
    report = make_backups(Settings(db_path=empty)).restore(str(tmp_path / "kb.backup"))
    assert report.previous_copy is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb.backup"]


def test_a_backup_of_an_sqlite_database_restores_into_postgres_and_back(postgres_url, tmp_path):
    with SqliteKnowledgeStore(str(tmp_path / "kb.db")) as lite:
        replace(lite, "shop", [service_facts("shop", "orders")])
    SqliteBackups(str(tmp_path / "kb.db")).backup(str(tmp_path / "lite.backup"))
    make_backups(Settings(db_path=postgres_url)).restore(str(tmp_path / "lite.backup"))
    make_backups(Settings(db_path=postgres_url)).backup(str(tmp_path / "pg.backup"))
    SqliteBackups(str(tmp_path / "other.db")).restore(str(tmp_path / "pg.backup"))
    with SqliteKnowledgeStore(str(tmp_path / "kb.db")) as a, SqliteKnowledgeStore(str(tmp_path / "other.db")) as b, \
            PostgresKnowledgeStore(postgres_url) as pg:
        assert _what(a) == _what(b) == _what(pg)


@pytest.mark.parametrize("content", [b"not a database at all", b"SQLite format 3\x00" + b"\x00" * 100])
def test_a_file_that_is_not_an_orbitkb_backup_changes_nothing(postgres_url, tmp_path, content):
    _fill(postgres_url)
    (tmp_path / "bad.backup").write_bytes(content)
    with pytest.raises(InvalidInput):
        make_backups(Settings(db_path=postgres_url)).restore(str(tmp_path / "bad.backup"))
    with PostgresKnowledgeStore(postgres_url) as live:
        assert [r.name for r in live.list_repositories()] == ["shop"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.backup"]


def test_a_backup_of_a_newer_orbitkb_is_refused(postgres_url, tmp_path):
    _fill(postgres_url)
    make_backups(Settings(db_path=postgres_url)).backup(str(tmp_path / "kb.backup"))
    with sqlite3.connect(tmp_path / "kb.backup") as conn:
        conn.execute("UPDATE schema_meta SET value = '999' WHERE key = 'version'")
    with pytest.raises(SchemaTooNew):
        make_backups(Settings(db_path=postgres_url)).restore(str(tmp_path / "kb.backup"))
    with PostgresKnowledgeStore(postgres_url) as live:
        assert [r.name for r in live.list_repositories()] == ["shop"]


def test_an_older_backup_is_upgraded_in_a_private_copy_never_in_the_file(postgres_url, tmp_path):
    from orbitkb.sqlite.engine import Database as SqliteDatabase
    from orbitkb.sqlite.migrations import upgrade

    db = SqliteDatabase(str(tmp_path / "old.backup"))
    upgrade(db, target=5)
    db.dispose()
    before = (tmp_path / "old.backup").read_bytes()
    report = make_backups(Settings(db_path=postgres_url)).restore(str(tmp_path / "old.backup"))
    assert report.schema_version == 5 and (tmp_path / "old.backup").read_bytes() == before


def test_readers_see_the_old_knowledge_base_or_the_new_never_half(postgres_cluster, tmp_path):
    source, live = postgres_cluster.create_database(), postgres_cluster.create_database()
    _fill(source, "shop", tuple(f"svc{i}" for i in range(12)))
    _fill(live, "mall", tuple(f"app{i}" for i in range(12)))
    make_backups(Settings(db_path=source)).backup(str(tmp_path / "kb.backup"))
    seen: set[tuple[str, ...]] = set()
    done = threading.Event()

    def read() -> None:
        with PostgresKnowledgeStore(live) as reader:
            while not done.is_set():
                seen.add(tuple(sorted({s.repository for s in reader.load_model().services})))

    thread = threading.Thread(target=read)
    thread.start()
    try:
        make_backups(Settings(db_path=live)).restore(str(tmp_path / "kb.backup"))
    finally:
        done.set()
        thread.join()
    assert seen <= {("mall",), ("shop",)}


def test_a_restore_waits_for_an_indexer_holding_its_transaction(postgres_cluster, tmp_path):
    source, live = postgres_cluster.create_database(), postgres_cluster.create_database()
    _fill(source)
    make_backups(Settings(db_path=source)).backup(str(tmp_path / "kb.backup"))
    engine = sa.create_engine(live.replace("postgresql://", "postgresql+psycopg://"))
    PostgresKnowledgeStore(live).close()  # the schema
    restored = threading.Event()
    with engine.connect() as indexer:
        indexer.execute(sa.text("LOCK TABLE repositories IN ROW EXCLUSIVE MODE"))  # mid-index
        worker = threading.Thread(target=lambda: (make_backups(Settings(db_path=live)).restore(
            str(tmp_path / "kb.backup")), restored.set()))
        worker.start()
        worker.join(timeout=2)
        assert not restored.is_set()  # held by the indexer's transaction
        indexer.commit()
    worker.join(timeout=60)
    engine.dispose()
    assert restored.is_set()


def test_an_unreachable_server_is_named_without_its_password(tmp_path):
    url = "postgresql://indexer:s3cret@127.0.0.1:1/kb"
    with pytest.raises((StoreError, InvalidInput)) as caught:
        make_backups(Settings(db_path=url)).backup(str(tmp_path / "new.backup"))
    assert "s3cret" not in str(caught.value) and "indexer" not in str(caught.value)
