"""The runs a long-lived process keeps (change history, architecture runs): each decoded once, the same answer
while nothing is recorded, and a run recorded by this process, another connection or another
process in the very next read (a find_change_surface reads up to 500 past runs on every call)."""

from __future__ import annotations

import subprocess
import sys

from orbitkb.domain.runs import ChangeSurfaceRun, Feedback, SurfaceFinding, Verification
from orbitkb.sqlite import SqliteKnowledgeStore


def _run(task: str) -> ChangeSurfaceRun:
    return ChangeSurfaceRun(None, task, "2024-05-01T10:00:00Z",
                            findings=(SurfaceFinding("ledger", "primary", "names the ledger", 0.8),))


def test_reading_the_history_again_decodes_no_run_and_returns_the_kept_answer(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    for task in ("close the books", "export the ledger", "rename an account"):
        store.add_change_surface_run(_run(task))
    first = store.change_history()
    assert store.change_history() is first
    assert store._history.decoded == 3
    store.close()


def test_the_history_is_read_without_an_engine_statement_and_not_at_all_while_nothing_is_committed(tmp_path):
    from sqlalchemy import event

    from orbitkb.sql.store import SqlKnowledgeStore

    path = str(tmp_path / "kb.db")
    writer, server = SqliteKnowledgeStore(path), SqliteKnowledgeStore(path, read_only=True)
    run_id = writer.add_change_surface_run(_run("close the books"))
    writer.add_verification(Verification(None, run_id, "books", "abc123", "2024-05-01T12:00:00Z",
                                         predicted=("ledger",), actual=("ledger", "audit")))
    statements: list[str] = []
    event.listen(server._db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    reads: list[int] = []
    probe_read = server._probe.read_rows
    server._probe.read_rows = lambda reader: reads.append(1) or probe_read(reader)
    first = server.change_history()
    assert server.change_history() is first and server.change_history() is first
    assert len(reads) == 1 and statements == []
    writer.add_feedback(Feedback(run_id, "ledger", "confirmed", "2024-05-01T11:00:00Z"))  # any commit: read again
    history = server.change_history()
    assert [f.outcome for f in history.feedback] == ["confirmed"] and len(reads) == 2
    assert history.verifications[0].actual == ("ledger", "audit")
    server.change_history(limit=1)  # another window is another read
    assert len(reads) == 3 and statements == []
    assert history == SqlKnowledgeStore.change_history(server)  # what the engine reads
    writer.close()
    server.close()


def test_a_run_recorded_here_is_read_next_and_only_it_is_decoded(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    store.add_change_surface_run(_run("close the books"))
    kept = store.change_history()
    new = store.add_change_surface_run(_run("reopen a closed period"))
    history = store.change_history()
    assert history is not kept
    assert [r.task for r in history.runs] == ["reopen a closed period", "close the books"]
    assert history.runs[0].id == new and history.runs[0].findings[0].service == "ledger"
    assert store._history.decoded == 2
    store.close()


def test_a_run_and_a_changed_verdict_from_another_connection_are_read_next(tmp_path):
    path = str(tmp_path / "kb.db")
    writer = SqliteKnowledgeStore(path)
    server = SqliteKnowledgeStore(path, read_only=True)
    run_id = writer.add_change_surface_run(_run("close the books"))
    writer.add_feedback(Feedback(run_id, "ledger", "confirmed", "2024-05-01T11:00:00Z"))
    assert [f.outcome for f in server.change_history().feedback] == ["confirmed"]
    writer.add_feedback(Feedback(run_id, "ledger", "rejected", "2024-05-01T12:00:00Z"))  # same row count
    writer.add_change_surface_run(_run("post a journal entry"))
    history = server.change_history()
    assert [f.outcome for f in history.feedback] == ["rejected"]
    assert [r.task for r in history.runs] == ["post a journal entry", "close the books"]
    writer.close()
    server.close()


def test_a_run_recorded_by_another_process_is_read_next(tmp_path):
    path = str(tmp_path / "kb.db")
    server = SqliteKnowledgeStore(path)
    server.add_change_surface_run(_run("close the books"))
    assert len(server.change_history().runs) == 1
    script = ("import sys\nfrom orbitkb.domain.runs import ChangeSurfaceRun\n"
              "from orbitkb.sqlite import SqliteKnowledgeStore\n"
              "s = SqliteKnowledgeStore(sys.argv[1])\n"
              "s.add_change_surface_run(ChangeSurfaceRun(None, 'audit the ledger', '2024-05-02T09:00:00Z'))\n"
              "s.close()\n")
    subprocess.run([sys.executable, "-c", script, path], check=True, timeout=120)
    assert [r.task for r in server.change_history().runs] == ["audit the ledger", "close the books"]
    server.close()


def test_the_window_keeps_the_newest_runs_and_drops_what_fell_out(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    for i in range(5):
        store.add_change_surface_run(_run(f"task {i}"))
    assert [r.task for r in store.change_history(limit=3).runs] == ["task 4", "task 3", "task 2"]
    store.add_change_surface_run(_run("task 5"))
    assert [r.task for r in store.change_history(limit=3).runs] == ["task 5", "task 4", "task 3"]
    assert len(store._history._runs._kept) == 3  # what fell out of the window is not kept
    assert store._history.decoded == 4
    store.close()


def test_an_index_of_facts_starts_the_decoding_over(tmp_path, make_snapshot):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    store.add_change_surface_run(_run("close the books"))
    store.change_history()
    store.replace_repository_facts(**make_snapshot("books", 1))
    assert [r.task for r in store.change_history().runs] == ["close the books"]
    assert store._history.decoded == 2  # ids may name other runs after a restore: read again
    store.close()


def test_architecture_runs_are_decoded_once_and_a_new_one_from_another_connection_is_read_next(tmp_path):
    from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun

    def run(when: str, services: tuple[str, ...]) -> ArchitectureRun:
        return ArchitectureRun(None, when, (ArchitectureFinding("cycle", "warning", services, "calls go round"),))

    path = str(tmp_path / "kb.db")
    writer, server = SqliteKnowledgeStore(path), SqliteKnowledgeStore(path, read_only=True)
    writer.add_architecture_run(run("2024-05-01T10:00:00Z", ("a", "b")))
    first = server.list_architecture_runs(limit=2)
    assert server.list_architecture_runs(limit=2) == first and server._architecture_runs.decoded == 1
    writer.add_architecture_run(run("2024-05-02T10:00:00Z", ("b", "c")))
    assert [r.findings[0].services for r in server.list_architecture_runs(limit=2)] == [("b", "c"), ("a", "b")]
    assert server._architecture_runs.decoded == 2
    writer.close()
    server.close()


def test_architecture_runs_read_after_a_restore_are_the_restored_ones(tmp_path):
    from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun
    from orbitkb.sqlite.backup import SqliteBackups

    path = str(tmp_path / "kb.db")
    other = SqliteKnowledgeStore(str(tmp_path / "other.db"))
    other.add_architecture_run(ArchitectureRun(None, "2024-05-01T10:00:00Z",
                                               (ArchitectureFinding("hub", "info", ("x",), "many callers"),)))
    other.close()
    store = SqliteKnowledgeStore(path)
    store.add_architecture_run(ArchitectureRun(None, "2024-05-01T10:00:00Z",
                                               (ArchitectureFinding("cycle", "warning", ("a", "b"), "calls go round"),)))
    assert [r.findings[0].kind for r in store.list_architecture_runs()] == ["cycle"]
    SqliteBackups(path).restore(str(tmp_path / "other.db"))
    assert [r.findings[0].kind for r in store.list_architecture_runs()] == ["hub"]  # same id, another run
    store.close()


def test_architecture_runs_are_read_without_an_engine_statement_and_a_new_index_elsewhere_is_seen(tmp_path):
    from sqlalchemy import event

    from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun

    path = str(tmp_path / "kb.db")
    writer = SqliteKnowledgeStore(path)
    writer.add_architecture_run(ArchitectureRun(None, "2024-05-01T10:00:00Z",
                                                (ArchitectureFinding("cycle", "warning", ("a", "b"), "calls go round"),)))
    writer.close()
    server = SqliteKnowledgeStore(path, read_only=True)
    statements: list[str] = []
    event.listen(server._db.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    reads: list[int] = []
    probe_read = server._probe.read_rows
    server._probe.read_rows = lambda reader: reads.append(1) or probe_read(reader)
    first = server.list_architecture_runs(limit=2)
    first.clear()  # each caller gets a list of its own
    assert [r.findings[0].kind for r in server.list_architecture_runs(limit=2)] == ["cycle"]
    assert len(reads) == 1 and statements == []
    script = ("import sys\nfrom orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun\n"
              "from orbitkb.sqlite import SqliteKnowledgeStore\n"
              "s = SqliteKnowledgeStore(sys.argv[1])\n"
              "s.add_architecture_run(ArchitectureRun(None, '2024-05-02T10:00:00Z',"
              " (ArchitectureFinding('hub', 'info', ('c',), 'many callers'),)))\n"
              "s.close()\n")
    subprocess.run([sys.executable, "-c", script, path], check=True, timeout=120)  # an index in another process
    assert [r.findings[0].kind for r in server.list_architecture_runs(limit=2)] == ["hub", "cycle"]
    assert len(reads) == 2 and statements == []
    server.close()
