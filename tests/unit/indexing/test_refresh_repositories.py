"""RefreshRepositories with fakes: which repositories a name stands for, unknown names, removed
repositories never coming back, and the folder checks behind the FolderLocator port."""

from __future__ import annotations

import pytest

from orbitkb.domain.errors import PathNotFound, RepositoryConflict, RepositoryNotFound
from orbitkb.domain.fakes import (
    FakeFolderLocator,
    FakeGitReader,
    InMemoryKnowledgeStore,
    MemorySourceTree,
    ScriptedAnalyzer,
)
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service, ServiceFacts
from orbitkb.domain.ports import AnalysisRequest, AnalysisResult
from orbitkb.domain.runs import IndexedFile
from orbitkb.domain.usecases.indexing import IndexRepository, IndexRequest
from orbitkb.domain.usecases.refresh import RefreshRepositories

SERVICES = {"shop": ("orders", "payments"), "blog": ("posts",)}


def analysis(request: AnalysisRequest) -> AnalysisResult:
    repo = request.repository
    names = SERVICES.get(repo, ("app",))
    return AnalysisResult(
        tuple(ServiceFacts(Service(service_id(repo, n), n, repo, n, "python", aliases=(f"{n}-svc",))) for n in names),
        files=tuple(IndexedFile(repo, f"{n}/main.py", f"h-{n}", 1, service_id(repo, n)) for n in names))


def setup(folders: FakeFolderLocator | None = None) -> tuple[InMemoryKnowledgeStore, ScriptedAnalyzer, RefreshRepositories]:
    store = InMemoryKnowledgeStore()
    analyzer = ScriptedAnalyzer(analysis)
    index = IndexRepository(store=store, analyzer=analyzer, git=FakeGitReader(),
                            open_tree=lambda p: MemorySourceTree({}),
                            folders=folders or FakeFolderLocator({"/src/shop", "/src/blog"}))
    index(IndexRequest("/src/shop"))
    index(IndexRequest("/src/blog"))
    analyzer.requests.clear()
    return store, analyzer, RefreshRepositories(store, index)


def refreshed(analyzer: ScriptedAnalyzer) -> list[str]:
    return [r.repository for r in analyzer.requests]


def test_no_name_refreshes_every_repository() -> None:
    store, analyzer, refresh = setup()
    out = refresh()
    assert [r.repository for r in out] == ["blog", "shop"] and not any(r.removed for r in out)
    assert refreshed(analyzer) == ["blog", "shop"]
    assert all(r.result is not None and r.result.run.status == "ok" for r in out)


@pytest.mark.parametrize("names", [("shop",), ("orders",), ("shop/payments",), ("payments-svc",),
                                   ("orders", "shop", "payments")])
def test_a_repository_or_any_name_of_its_services_refreshes_it_once(names: tuple[str, ...]) -> None:
    _store, analyzer, refresh = setup()
    assert [r.repository for r in refresh(names)] == ["shop"]
    assert refreshed(analyzer) == ["shop"]


def test_an_unknown_name_refuses_everything_with_close_names() -> None:
    _store, analyzer, refresh = setup()
    with pytest.raises(RepositoryNotFound) as info:
        refresh(("shop", "ordrs"))
    assert "ordrs" in str(info.value) and "orders" in info.value.suggestions
    assert refreshed(analyzer) == []  # nothing re-indexed before the refusal


def test_nothing_indexed_selects_nothing() -> None:
    store = InMemoryKnowledgeStore()
    index = IndexRepository(store=store, analyzer=ScriptedAnalyzer(analysis), git=FakeGitReader(),
                            open_tree=lambda p: MemorySourceTree({}), folders=FakeFolderLocator())
    assert RefreshRepositories(store, index)() == ()


class RemovingIndex:
    """Removes ``victim`` from the store just before it would be re-indexed (a concurrent remove)."""

    def __init__(self, store: InMemoryKnowledgeStore, inner: IndexRepository, victim: str) -> None:
        self.store, self.inner, self.victim = store, inner, victim

    def __call__(self, request: IndexRequest, progress=None):
        if request.repository_name == self.victim:
            self.store.remove_repository(self.victim)
        return self.inner(request, progress)


def test_a_repository_removed_meanwhile_is_reported_and_never_resurrected() -> None:
    store, _analyzer, refresh = setup()
    racing = RefreshRepositories(store, RemovingIndex(store, refresh.index, "blog"))  # type: ignore[arg-type]
    out = racing()
    assert [(r.repository, r.removed) for r in out] == [("blog", True), ("shop", False)]
    assert [r.name for r in store.list_repositories()] == ["shop"]
    store2, _a, refresh2 = setup()
    with pytest.raises(RepositoryNotFound):  # named explicitly: an error, still not resurrected
        RefreshRepositories(store2, RemovingIndex(store2, refresh2.index, "blog"))(("blog",))  # type: ignore[arg-type]
    assert [r.name for r in store2.list_repositories()] == ["shop"]


def test_folder_checks_go_through_the_folder_locator() -> None:
    folders = FakeFolderLocator({"/src/shop", "/src/blog", "/src/link-to-shop"}, files={"/src/notes.txt"})
    store, _analyzer, refresh = setup(folders)
    index = refresh.index
    with pytest.raises(PathNotFound, match="does not exist"):
        index(IndexRequest("/src/missing"))
    with pytest.raises(PathNotFound, match="not a folder"):
        index(IndexRequest("/src/notes.txt"))
    with pytest.raises(RepositoryConflict):  # another folder under an indexed name
        index(IndexRequest("/src/link-to-shop", "shop"))
    assert index(IndexRequest("/src/../src/shop")).repository.root_path == "/src/shop"
    assert index(IndexRequest("/src/link-to-shop", "mirror")).repository.name == "mirror"
    assert [r.name for r in store.list_repositories()] == ["blog", "mirror", "shop"]


def test_without_a_folder_locator_the_tree_checks_the_path_and_names_the_root() -> None:
    def open_tree(path: str) -> MemorySourceTree:
        if path != "./shop":
            raise PathNotFound(f"path does not exist: {path}")
        return MemorySourceTree({}, root="/src/shop")

    store = InMemoryKnowledgeStore()
    index = IndexRepository(store=store, analyzer=ScriptedAnalyzer(analysis), git=FakeGitReader(), open_tree=open_tree)
    done = index(IndexRequest("./shop"))
    assert (done.repository.name, done.repository.root_path) == ("shop", "/src/shop")
    with pytest.raises(PathNotFound):
        index(IndexRequest("./elsewhere", "shop"))
