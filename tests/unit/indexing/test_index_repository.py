"""IndexRepository's business rules with fakes: atomic snapshots, interrupted runs, hooks that fail,
name conflicts, cross-repository reconciliation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from orbitkb.domain.errors import OrbitkbError, RepositoryConflict
from orbitkb.domain.fakes import InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import CallKind, Service, ServiceCall, ServiceFacts, TargetKind
from orbitkb.domain.ports import AnalysisResult
from orbitkb.domain.runs import IndexedFile
from orbitkb.domain.usecases.indexing import HookOutcome, IndexRepository, IndexRequest
from orbitkb.git import OsFolderLocator


class NoGit:
    def is_repository(self, path: str) -> bool:
        return False

    def head_commit(self, path: str) -> None:
        return None


class StubAnalyzer:
    """Returns a scripted analysis per call; an exception instance is raised instead."""

    version = "stub"

    def __init__(self, *results: Any) -> None:
        self.results = list(results)

    def analyze(self, tree, request, cache, progress=None) -> AnalysisResult:
        r = self.results.pop(0)
        if isinstance(r, BaseException):
            raise r
        return r(request.repository) if callable(r) else r


def facts(repo: str, name: str, calls_to: str | None = None) -> ServiceFacts:
    sid = service_id(repo, name)
    calls = ()
    if calls_to:
        calls = (ServiceCall(make_id("call", sid, calls_to), sid, CallKind.HTTP, calls_to, TargetKind.UNKNOWN),)
    return ServiceFacts(Service(sid, name, repo, name, "python"), calls=calls)


def result(*services: tuple[str, str | None]) -> Any:
    return lambda repo: AnalysisResult(
        tuple(facts(repo, n, c) for n, c in services),
        files=tuple(IndexedFile(repo, f"{n}/app.py", f"h-{n}", 10, service_id(repo, n)) for n, _ in services))


def make(store, analyzer, hooks=()) -> IndexRepository:
    return IndexRepository(store=store, analyzer=analyzer, git=NoGit(),  # type: ignore[arg-type]
                           open_tree=lambda p: MemorySourceTree({}), folders=OsFolderLocator(), hooks=hooks,
                           clock=lambda: "2026-01-01T00:00:00")


def test_a_killed_run_leaves_the_previous_snapshot_and_the_next_run_completes(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    index = make(store, StubAnalyzer(result(("orders", None)), KeyboardInterrupt(), result(("orders", None), ("pay", None))))
    index(IndexRequest(str(tmp_path), "shop"))
    with pytest.raises(KeyboardInterrupt):
        index(IndexRequest(str(tmp_path), "shop"))
    assert [s.name for s in store.list_services()] == ["orders"]
    assert store.list_index_runs("shop")[0].status == "interrupted"
    done = index(IndexRequest(str(tmp_path), "shop"))
    assert done.services == ("orders", "pay") and done.run.status == "ok"


def test_a_run_left_running_by_a_dead_process_is_marked_interrupted(tmp_path: Path) -> None:
    from orbitkb.domain.runs import IndexRun

    store = InMemoryKnowledgeStore()
    store.add_index_run(IndexRun(None, "shop", "2025-01-01T00:00:00"))
    make(store, StubAnalyzer(result(("orders", None))))(IndexRequest(str(tmp_path), "shop"))
    statuses = sorted(r.status for r in store.list_index_runs("shop"))
    assert statuses == ["interrupted", "ok"]


def test_a_failing_hook_never_loses_facts(tmp_path: Path) -> None:
    def bad_hook(repo, f):
        raise OrbitkbError("llm exploded")

    def good_hook(repo, f):
        return HookOutcome("costly", True, "done", llm_calls=3, cost_usd=0.5)

    store = InMemoryKnowledgeStore()
    res = make(store, StubAnalyzer(result(("orders", None))), [bad_hook, good_hook])(IndexRequest(str(tmp_path), "shop"))
    assert [s.name for s in store.list_services()] == ["orders"]
    assert res.run.status == "partial" and "llm exploded" in (res.run.notes or "")
    assert res.run.llm_calls == 3 and res.run.cost_usd == 0.5 and res.run.input_tokens is None


def test_another_folder_under_the_same_name_is_refused(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    index = make(store, StubAnalyzer(result(("x", None)), result(("y", None))))
    index(IndexRequest(str(tmp_path / "a"), "same"))
    with pytest.raises(RepositoryConflict):
        index(IndexRequest(str(tmp_path / "b"), "same"))
    assert [s.name for s in store.list_services()] == ["x"]
    index(IndexRequest(str(tmp_path / "b"), "same", replace=True))
    assert [s.name for s in store.list_services()] == ["y"]


def test_calls_are_reconciled_when_the_callee_is_indexed_later(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    index = make(store, StubAnalyzer(result(("checkout", "billing")), result(("billing", None))))
    index(IndexRequest(str(tmp_path / "a"), "front"))
    [call] = store.list_calls()
    assert call.to_service_id is None and call.target_kind == TargetKind.INTERNAL  # a bare host: internal-shaped
    res = index(IndexRequest(str(tmp_path / "b"), "back"))
    assert res.reconciled_calls == 1
    [call] = store.list_calls()
    assert call.to_service_id == service_id("back", "billing") and call.target == "billing"


def test_vendor_targets_become_external(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    make(store, StubAnalyzer(result(("pay", "https://api.stripe.com/v1/charges"))))(IndexRequest(str(tmp_path), "s"))
    [call] = store.list_calls()
    assert call.target == "Stripe API" and call.target_kind == TargetKind.EXTERNAL and call.resource_type.value == "saas"


def test_incremental_counts(tmp_path: Path) -> None:
    store = InMemoryKnowledgeStore()
    index = make(store, StubAnalyzer(result(("a", None), ("b", None)), result(("a", None))))
    first = index(IndexRequest(str(tmp_path), "s"))
    assert first.files_changed == 2 and first.removed_files == 0
    second = index(IndexRequest(str(tmp_path), "s"))
    assert second.files_changed == 0 and second.removed_files == 1
    assert [s.name for s in store.list_services()] == ["a"]


def test_an_unchanged_tree_rewrites_nothing_but_the_commit(tmp_path: Path) -> None:
    class CountingStore(InMemoryKnowledgeStore):
        replaced = 0

        def replace_repository_facts(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            CountingStore.replaced += 1
            return super().replace_repository_facts(*args, **kwargs)

    ran: list[str] = []

    class Smells:
        runs_when_unchanged = False

        def __call__(self, repo, f):
            ran.append("smells")
            return HookOutcome("smells", True)

    def always(repo, f):
        ran.append("always")
        return HookOutcome("always", True)

    store = CountingStore()
    index = make(store, StubAnalyzer(result(("a", None)), result(("a", None)), result(("a", None), ("b", None))),
                 [Smells(), always])
    index(IndexRequest(str(tmp_path), "s"))
    index(IndexRequest(str(tmp_path), "s"))
    assert CountingStore.replaced == 1 and ran == ["smells", "always", "always"]
    index(IndexRequest(str(tmp_path), "s"))
    assert CountingStore.replaced == 2 and ran[-2:] == ["smells", "always"]
    assert [s.name for s in store.list_services()] == ["a", "b"]
