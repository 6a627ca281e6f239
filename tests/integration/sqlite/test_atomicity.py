"""A snapshot replacement is all or nothing: an exception, or the process dying half-way, leaves
the previous snapshot whole and the database usable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from orbitkb.sqlite import SqliteKnowledgeStore, search

CRASH = textwrap.dedent(
    """
    import os, sys
    from orbitkb.sqlite import SqliteKnowledgeStore, search
    from orbitkb.domain.model import Repository, Service, ServiceFacts

    def die(*_args, **_kwargs):
        os._exit(3)  # no rollback, no cleanup: like a killed process

    store = SqliteKnowledgeStore(sys.argv[1])
    search.insert = die  # called last, after every delete and insert of the new snapshot
    store.replace_repository_facts(
        Repository("shop", "/r", indexed_commit="new"), [ServiceFacts(Service("svc:new", "new", "shop", ".", "go"))],
        [], [], [], [],
    )
    """
)


def assert_old_snapshot(store: SqliteKnowledgeStore) -> None:
    assert store.get_repository("shop").indexed_commit == "v1"
    assert len(store.list_services("shop")) == 5
    assert len(store.list_apis()) == 5 and len(store.list_calls()) == 5
    assert len(store.list_indexed_files("shop")) == 10
    assert {h.name for h in store.search(["svc"])} == {f"svc-{i:03d}" for i in range(5)}


def test_an_exception_inside_replace_keeps_the_old_snapshot(tmp_path, monkeypatch, make_snapshot):
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    store.replace_repository_facts(**make_snapshot("shop", 5))

    def boom(*_args: object) -> None:
        raise RuntimeError("disk full, say")

    monkeypatch.setattr(search, "insert", boom)
    with pytest.raises(RuntimeError):
        store.replace_repository_facts(**make_snapshot("shop", 3, tag="v2"))
    assert_old_snapshot(store)
    monkeypatch.undo()
    store.replace_repository_facts(**make_snapshot("shop", 3, tag="v2"))  # the store is still usable
    assert len(store.list_services()) == 3
    store.close()


def test_a_process_dying_inside_replace_keeps_the_old_snapshot(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(**make_snapshot("shop", 5))
    crashed = subprocess.run([sys.executable, "-c", CRASH, path], capture_output=True, text=True, timeout=120)
    assert crashed.returncode == 3, crashed.stderr
    with SqliteKnowledgeStore(path) as store:
        assert_old_snapshot(store)
        store.replace_repository_facts(**make_snapshot("shop", 2, tag="v3"))  # not left locked
        assert len(store.list_services()) == 2


def test_undecodable_names_are_stored_not_fatal(tmp_path, make_snapshot):
    """A file name read with surrogateescape cannot be UTF-8 encoded; it must not abort the index."""
    from orbitkb.domain.model import Gap
    from orbitkb.domain.runs import IndexedFile

    args = make_snapshot("shop", 2)
    args["files"] = [IndexedFile("shop", "caf\udce9.py", "0" * 64, 1)]
    args["gaps"] = [Gap("shop", "caf\udce9.py", "invalid_utf8", "name is not UTF-8 \udcff")]
    with SqliteKnowledgeStore(str(tmp_path / "kb.db")) as store:
        store.replace_repository_facts(**args)
        assert [f.path for f in store.list_indexed_files("shop")] == ["caf\ufffd.py"]
        assert store.list_gaps()[0].reason == "name is not UTF-8 \ufffd"
        store.put_llm_cache("k\udcff", "v")
        assert store.get_llm_cache("k\udcff") == "v"
        assert store.analysis_cache().get_many(["x\udcff"]) == {}
