"""RemoveRepository with fakes: the snapshot goes, history stays, calls into it become unresolved,
and an update racing the removal never brings the repository back."""

from __future__ import annotations

from pathlib import Path

import pytest

from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.usecases.indexing import IndexRequest
from orbitkb.domain.usecases.lifecycle import RemoveRepository
from tests.unit.indexing.test_index_repository import StubAnalyzer, make, result


def two_repositories(tmp_path: Path) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    index = make(store, StubAnalyzer(result(("payments", None)), result(("orders", "payments"))))
    index(IndexRequest(str(tmp_path / "a"), "pay"))
    index(IndexRequest(str(tmp_path / "b"), "shop"))
    return store


def test_remove_deletes_the_snapshot_keeps_history_and_unresolves_calls_into_it(tmp_path: Path) -> None:
    store = two_repositories(tmp_path)
    [call] = store.list_calls()
    assert call.to_service_id is not None  # orders -> payments resolved across repositories

    removed = RemoveRepository(store)("pay")

    assert removed.services == ("payments",) and removed.calls_unresolved == 1
    assert [r.name for r in store.list_repositories()] == ["shop"]
    assert [s.name for s in store.list_services()] == ["orders"]
    assert store.list_indexed_files("pay") == [] and store.list_gaps("pay") == []
    [call] = store.list_calls()
    assert call.to_service_id is None and call.to_api_id is None  # an unmapped internal target now
    assert store.list_index_runs("pay"), "the run history outlives the repository"


def test_remove_an_unknown_repository_is_not_found_with_the_known_names(tmp_path: Path) -> None:
    store = two_repositories(tmp_path)
    with pytest.raises(RepositoryNotFound) as err:
        RemoveRepository(store)("shp")
    assert "shop" in (err.value.hint or "")
    assert len(store.list_repositories()) == 2


def test_an_update_of_a_removed_repository_is_refused(tmp_path: Path) -> None:
    store = two_repositories(tmp_path)
    RemoveRepository(store)("pay")
    index = make(store, StubAnalyzer(result(("payments", None))))
    with pytest.raises(RepositoryNotFound):
        index(IndexRequest(str(tmp_path / "a"), "pay", if_indexed=True))
    assert store.get_repository("pay") is None and [s.name for s in store.list_services()] == ["orders"]


@pytest.mark.parametrize("same_facts", [False, True])
def test_an_update_racing_a_removal_does_not_resurrect_it(tmp_path: Path, same_facts: bool) -> None:
    """The repository is removed while the update is analysing: its write must not bring it back
    (both paths: a changed snapshot, and an unchanged one that only moves freshness)."""
    store = two_repositories(tmp_path)

    def removed_midway(repo: str):  # type: ignore[no-untyped-def]
        RemoveRepository(store)("pay")
        return result(("payments", None) if same_facts else ("payments-v2", None))(repo)

    index = make(store, StubAnalyzer(removed_midway))
    with pytest.raises(RepositoryNotFound):
        index(IndexRequest(str(tmp_path / "a"), "pay", if_indexed=True))
    assert store.get_repository("pay") is None
    assert [s.name for s in store.list_services()] == ["orders"]
