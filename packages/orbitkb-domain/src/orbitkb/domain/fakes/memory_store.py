"""InMemoryKnowledgeStore: the KnowledgeStore port in plain Python, for tests and users' scripts.

It behaves like the SQLite store (the contract suite in tests/contract runs against both): the
same orders, the same replacement semantics, vectors rounded to float32, free-form JSON detail
normalized as JSON would, and a search that mimics FTS5 — word tokens folded for case and
accents, prefix match on a term's last word, OR across terms, ranked by bm25 with the column
weights name 10 / keywords 4 / text 1.
"""

from __future__ import annotations

from orbitkb.domain.fakes.memory.facts import MemoryFacts
from orbitkb.domain.fakes.memory.runs import MemoryRunLog
from orbitkb.domain.fakes.memory.search import MemorySearchIndex
from orbitkb.domain.fakes.memory.vectors import MemoryCaches, MemoryEmbeddingStore

SCHEMA_VERSION = 7  # the SQLite store's latest schema: the fake answers like a fresh database


class InMemoryKnowledgeStore(
    MemoryFacts, MemorySearchIndex, MemoryRunLog, MemoryEmbeddingStore, MemoryCaches
):
    """A KnowledgeStore held in dictionaries, one role per module (``fakes/memory/``, as
    ``ports/store.py`` names them). Thread-safe (one lock); nothing touches the disk."""

    # -- meta
    def schema_version(self) -> int:
        return SCHEMA_VERSION

    def close(self) -> None:
        pass
