"""In-memory fakes of every port, for tests and for users' own scripts."""

from orbitkb.domain.fakes.analysis import DictAnalysisCache, ScriptedAnalyzer
from orbitkb.domain.fakes.embedder import FakeEmbedder
from orbitkb.domain.fakes.folders import FakeFolderLocator
from orbitkb.domain.fakes.git import FakeGitReader
from orbitkb.domain.fakes.llm import FakeLLMBackend
from orbitkb.domain.fakes.memory_store import InMemoryKnowledgeStore
from orbitkb.domain.fakes.read_only import ReadOnlyStore
from orbitkb.domain.fakes.source_tree import MemorySourceTree

__all__ = [
    "DictAnalysisCache",
    "FakeEmbedder",
    "FakeFolderLocator",
    "FakeGitReader",
    "FakeLLMBackend",
    "InMemoryKnowledgeStore",
    "MemorySourceTree",
    "ReadOnlyStore",
    "ScriptedAnalyzer",
]
