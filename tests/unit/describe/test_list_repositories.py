"""list_repositories shows each repository's newest index status from one read of the run log,
whatever the number of repositories, and never decodes whole runs to find it. Counted by a wrapper
around the in-memory store (a fake, no mock)."""

from __future__ import annotations

from collections import Counter

import attrs

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.model import Repository
from orbitkb.domain.model_cache import CachedModelReader
from orbitkb.domain.runs import IndexRun
from orbitkb.domain.usecases.describe import ListRepositories
from tests.unit.change.test_store_reads import CountingStore


def _store(repositories: int) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    for n in range(repositories):
        store.upsert_repository(Repository(f"repo{n}", f"/src/repo{n}"))
    return store


def _run(store: InMemoryKnowledgeStore, repository: str, status: str) -> int:
    return store.add_index_run(IndexRun(None, repository, "2024-05-01T00:00:00Z", status=status))


def test_each_repository_shows_the_status_of_its_newest_run_or_none() -> None:
    store = _store(3)
    _run(store, "repo0", "failed")
    _run(store, "repo1", "ok")
    _run(store, "repo0", "ok")  # newer than the failure
    running = _run(store, "repo1", "running")
    store.update_index_run(attrs.evolve(store.list_index_runs("repo1", limit=1)[0], id=running, status="partial"))
    _run(store, "gone", "ok")  # a removed repository's history is not listed
    views = ListRepositories(store)()
    assert [(v.name, v.last_run_status) for v in views] == [("repo0", "ok"), ("repo1", "partial"), ("repo2", None)]


def test_one_read_of_the_run_log_whatever_the_number_of_repositories() -> None:
    for repositories in (1, 5):
        inner = _store(repositories)
        for n in range(repositories):
            _run(inner, f"repo{n}", "ok")
        store = CountingStore(inner)
        models = CachedModelReader(store)  # type: ignore[arg-type]
        listing = ListRepositories(store, models=models)  # type: ignore[arg-type]
        listing()
        store.calls.clear()
        assert [v.last_run_status for v in listing()] == ["ok"] * repositories
        assert store.reads() == Counter({"snapshot_fingerprint": 1, "latest_index_statuses": 1}), store.reads()
