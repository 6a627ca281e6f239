"""In-memory fakes of every port, for tests and for users' own scripts."""

from orbitkb.domain.fakes.llm import FakeLLMBackend
from orbitkb.domain.fakes.memory_store import InMemoryKnowledgeStore
from orbitkb.domain.fakes.source_tree import MemorySourceTree

__all__ = ["FakeLLMBackend", "InMemoryKnowledgeStore", "MemorySourceTree"]
