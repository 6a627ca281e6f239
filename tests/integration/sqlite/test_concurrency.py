"""WAL, pragmas on every pooled connection, and concurrent writers (threads and processes) on one file."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading

import pytest
import sqlalchemy as sa

from orbitkb.domain.runs import IndexRun
from orbitkb.sqlite import SqliteKnowledgeStore

WORKER = textwrap.dedent(
    """
    import sys
    from orbitkb.domain.ids import service_id
    from orbitkb.domain.model import Repository, Service, ServiceFacts
    from orbitkb.domain.runs import IndexRun, IndexedFile
    from orbitkb.sqlite import SqliteKnowledgeStore

    path, repo, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    store = SqliteKnowledgeStore(path)
    for n in range(rounds):
        services = [ServiceFacts(Service(service_id(repo, f"s{i}"), f"s{i}", repo, ".", "go")) for i in range(20)]
        files = [IndexedFile(repo, f"f{i}.go", "0" * 64, i) for i in range(300)]
        store.replace_repository_facts(Repository(repo, "/r", indexed_commit=str(n)), services, [], [], files, [])
        store.add_index_run(IndexRun(None, repo, f"t{n}"))
        store.analysis_cache().put_many({f"{repo}-{n}-{i}": "x" for i in range(50)})
        assert len(store.list_services(repo)) == 20
    store.close()
    """
)


def test_every_connection_gets_wal_foreign_keys_and_a_busy_timeout(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    seen = []

    def probe() -> None:
        with store._db.engine.connect() as conn:
            seen.append(
                tuple(
                    conn.exec_driver_sql(f"PRAGMA {p}").scalar()
                    for p in ("journal_mode", "foreign_keys", "busy_timeout")
                )
            )

    threads = [threading.Thread(target=probe) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen and set(seen) == {("wal", 1, 10_000)}
    store.close()


def test_two_processes_write_the_same_file_without_lock_errors(tmp_path):
    path = str(tmp_path / "shared.db")
    SqliteKnowledgeStore(path).close()
    workers = [
        subprocess.Popen([sys.executable, "-c", WORKER, path, repo, "12"], stderr=subprocess.PIPE, text=True)
        for repo in ("alpha", "beta")
    ]
    errors = [w.communicate(timeout=240)[1] for w in workers]
    assert [w.returncode for w in workers] == [0, 0], errors
    with SqliteKnowledgeStore(path) as store:
        assert [r.name for r in store.list_repositories()] == ["alpha", "beta"]
        assert len(store.list_services()) == 40
        assert len(store.list_index_runs(limit=100)) == 24
        assert len(store.list_indexed_files("beta")) == 300


@pytest.mark.parametrize("where", ["file", "memory"])
def test_threads_share_a_store(tmp_path, make_snapshot, where):
    store = SqliteKnowledgeStore(str(tmp_path / "threads.db") if where == "file" else ":memory:")
    failures: list[BaseException] = []

    def work(repo: str) -> None:
        try:
            for n in range(8):
                store.replace_repository_facts(**make_snapshot(repo, 10, tag=f"v{n}"))
                store.add_index_run(IndexRun(None, repo, f"t{n}"))
                assert len(store.list_apis()) >= 10
                assert store.search([repo[:3], "svc"])
        except BaseException as exc:  # reported by the main thread
            failures.append(exc)

    threads = [threading.Thread(target=work, args=(f"repo{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert len(store.list_services()) == 40 and len(store.list_index_runs(limit=100)) == 32
    assert {a.path.rsplit("/", 1)[1] for a in store.list_apis()} == {"v7"}
    store.close()


def test_the_engine_uses_a_pool_for_files_and_one_static_connection_in_memory(tmp_path):
    on_disk = SqliteKnowledgeStore(str(tmp_path / "p.db"))
    in_memory = SqliteKnowledgeStore(":memory:")
    assert isinstance(in_memory._db.engine.pool, sa.pool.StaticPool)
    assert not isinstance(on_disk._db.engine.pool, sa.pool.StaticPool)
    on_disk.close()
    in_memory.close()
