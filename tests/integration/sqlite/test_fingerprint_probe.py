"""The snapshot fingerprint a long-lived process reads before every answer comes through a
connection of its own (no engine statement), is the engine's answer, follows writes from other
connections and restores, and never holds a read open against the WAL checkpoint."""

from __future__ import annotations

import sqlite3

from sqlalchemy import event

from orbitkb.sql import snapshot
from orbitkb.sqlite import SqliteKnowledgeStore
from orbitkb.sqlite.backup import SqliteBackups
from orbitkb.sqlite.fingerprints import FingerprintProbe


def _engine_fingerprint(store: SqliteKnowledgeStore) -> str:
    with store._db.read() as conn:
        return snapshot.fingerprint(conn)


def test_the_fingerprint_is_read_without_an_engine_statement_and_is_the_engines(tmp_path, make_snapshot):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    store.replace_repository_facts(**make_snapshot("depot", 2))
    statements: list[str] = []
    event.listen(store._db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    found = store.snapshot_fingerprint()
    assert statements == []
    assert found == _engine_fingerprint(store) != snapshot.INITIAL
    store.close()


def test_a_new_database_reads_initial_and_an_in_memory_one_still_answers(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    assert store.snapshot_fingerprint() == _engine_fingerprint(store)
    memory = SqliteKnowledgeStore(":memory:")
    assert memory.snapshot_fingerprint() == snapshot.INITIAL
    store.close()
    memory.close()


def test_the_fingerprint_follows_another_connection_and_a_restore(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    writer = SqliteKnowledgeStore(path)
    server = SqliteKnowledgeStore(path, read_only=True)
    writer.replace_repository_facts(**make_snapshot("depot", 2))
    SqliteBackups(path).backup(str(tmp_path / "copy.db"))
    first = server.snapshot_fingerprint()
    writer.replace_repository_facts(**make_snapshot("fleet", 1))
    second = server.snapshot_fingerprint()
    assert second != first and second == _engine_fingerprint(writer)
    SqliteBackups(path).restore(str(tmp_path / "copy.db"))
    assert server.snapshot_fingerprint() not in (first, second)
    assert server.snapshot_fingerprint() == _engine_fingerprint(writer)
    writer.close()
    server.close()


def test_reading_it_holds_no_read_open_against_the_checkpoint(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    store = SqliteKnowledgeStore(path)
    for i in range(3):
        store.replace_repository_facts(**make_snapshot(f"r{i}", 2))
        store.snapshot_fingerprint()
    other = sqlite3.connect(path, isolation_level=None)
    busy, _, _ = other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    assert busy == 0
    other.close()
    store.close()


def test_a_probe_that_cannot_read_says_so_and_the_store_names_the_error(tmp_path):
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("shopping list\n" * 100)
    probe = FingerprintProbe(str(not_a_database))
    assert probe.read() is None
    assert FingerprintProbe(str(tmp_path / "missing.db")).read() is None
    probe.close()


def test_a_file_it_cannot_open_is_left_to_the_engine_and_a_failed_read_is_tried_again(tmp_path, make_snapshot):
    missing = FingerprintProbe(str(tmp_path / "later.db"))
    assert missing.read() is None
    SqliteKnowledgeStore(str(tmp_path / "later.db")).close()
    assert missing.read() is None  # not opened here once: the engine answers from then on
    path = str(tmp_path / "kb.db")
    store = SqliteKnowledgeStore(path)
    store.replace_repository_facts(**make_snapshot("depot", 1))
    probe = FingerprintProbe(path)
    assert probe.read() == _engine_fingerprint(store)
    probe._conn.close()  # the connection breaks under it: this read fails, the next one reconnects
    assert probe.read() is None
    assert probe.read() == _engine_fingerprint(store)
    store.close()


def test_each_repositorys_newest_index_status_is_read_without_an_engine_statement(tmp_path):
    from orbitkb.domain.runs import IndexRun

    path = str(tmp_path / "kb.db")
    writer = SqliteKnowledgeStore(path)
    server = SqliteKnowledgeStore(path, read_only=True)
    writer.add_index_run(IndexRun(None, "depot", "t0", status="ok"))
    running = writer.add_index_run(IndexRun(None, "depot", "t1"))
    writer.add_index_run(IndexRun(None, "fleet", "t2", status="failed"))
    statements: list[str] = []
    event.listen(server._db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    assert server.latest_index_statuses() == {"depot": "running", "fleet": "failed"}
    writer.update_index_run(IndexRun(running, "depot", "t1", status="partial"))  # another connection's write
    assert server.latest_index_statuses() == {"depot": "partial", "fleet": "failed"}
    assert statements == []
    with writer._db.read() as conn:
        from orbitkb.sql import runs

        assert runs.latest_statuses(conn) == server.latest_index_statuses()
    unreadable = tmp_path / "notes.txt"
    unreadable.write_text("shopping list\n" * 100)
    assert FingerprintProbe(str(unreadable)).latest_index_statuses() is None  # the engine answers, naming the error
    assert SqliteKnowledgeStore(":memory:").latest_index_statuses() == {}
    writer.close()
    server.close()


def test_the_data_version_moves_on_any_other_connections_commit_and_on_a_new_connection(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    store = SqliteKnowledgeStore(path)
    probe = FingerprintProbe(path)
    first = probe.data_version()
    assert first is not None and probe.data_version() == first  # nothing committed: it stands
    store.replace_repository_facts(**make_snapshot("depot", 1))
    second = probe.data_version()
    assert second != first
    probe._conn.close()  # the connection breaks: the next read fails, the one after is of a new connection
    assert probe.data_version() is None
    third = probe.data_version()
    assert third is not None and third[0] != second[0]
    unreadable = tmp_path / "notes.txt"
    unreadable.write_text("shopping list\n" * 100)
    assert FingerprintProbe(str(unreadable)).data_version() is None
    probe.close()
    store.close()
