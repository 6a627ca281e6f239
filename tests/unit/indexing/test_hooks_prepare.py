"""A hook that can get ready in the background (the embeddings: load the model) is told when a
first index of a repository has analysed its files (after the analysis: its workers are forked),
before the facts are written; a re-index, which may embed nothing, tells it nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orbitkb.domain.fakes import FakeEmbedder, InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service, ServiceFacts
from orbitkb.domain.ports import AnalysisResult
from orbitkb.domain.usecases.embeddings import EmbedKnowledge
from orbitkb.domain.usecases.indexing import HookOutcome, IndexRepository, IndexRequest
from orbitkb.git import OsFolderLocator


class NoGit:
    def is_repository(self, path: str) -> bool:
        return False

    def head_commit(self, path: str) -> None:
        return None


class Timeline:
    """What happened, in order: the analysis and each hook's calls."""

    def __init__(self) -> None:
        self.events: list[str] = []


class Analyzer:
    version = "timeline"

    def __init__(self, timeline: Timeline, *names: str) -> None:
        self.timeline, self.names = timeline, names

    def analyze(self, tree: Any, request: Any, cache: Any, progress: Any = None) -> AnalysisResult:
        self.timeline.events.append("analyze")
        repo = request.repository
        return AnalysisResult(tuple(ServiceFacts(Service(service_id(repo, n), n, repo, n, "python"))
                                    for n in self.names))


class ReadyHook:
    """A hook with ``prepare``."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline

    def prepare(self) -> None:
        self.timeline.events.append("prepare")

    def __call__(self, repo: Any, facts: Any) -> HookOutcome:
        self.timeline.events.append("run")
        return HookOutcome("ready", True, "")


def plain_hook(repo: Any, facts: Any) -> HookOutcome:  # no prepare: left alone
    return HookOutcome("plain", True, "")


def index(store: InMemoryKnowledgeStore, timeline: Timeline, hooks: tuple[Any, ...], *names: str) -> IndexRepository:
    return IndexRepository(store=store, analyzer=Analyzer(timeline, *names), git=NoGit(),  # type: ignore[arg-type]
                           open_tree=lambda p: MemorySourceTree({}), folders=OsFolderLocator(), hooks=hooks,
                           clock=lambda: "2026-01-01T00:00:00")


def test_a_first_index_tells_its_hooks_after_the_analysis_and_a_reindex_does_not(tmp_path: Path) -> None:
    store, timeline = InMemoryKnowledgeStore(), Timeline()
    hooks = (plain_hook, ReadyHook(timeline))
    index(store, timeline, hooks, "billing")(IndexRequest(str(tmp_path), "ledger"))
    assert timeline.events == ["analyze", "prepare", "run"]
    timeline.events.clear()
    index(store, timeline, hooks, "billing", "invoicing")(IndexRequest(str(tmp_path), "ledger"))
    assert timeline.events == ["analyze", "run"]
    timeline.events.clear()
    (tmp_path / "other").mkdir()
    index(store, timeline, hooks, "parcels")(IndexRequest(str(tmp_path / "other"), "warehouse"))
    assert timeline.events == ["analyze", "prepare", "run"]  # another repository: first index again


class PreparedEmbedder(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__(dim=8)
        self.prepared = 0

    def prepare(self) -> None:
        self.prepared += 1


def test_the_embeddings_hook_passes_prepare_to_an_embedder_that_has_it() -> None:
    store = InMemoryKnowledgeStore()
    ready = PreparedEmbedder()
    EmbedKnowledge(store, ready).prepare()
    assert ready.prepared == 1
    EmbedKnowledge(store, FakeEmbedder(dim=8)).prepare()  # an embedder without prepare: nothing to do
