"""InMemoryKnowledgeStore: the KnowledgeStore port in plain Python, for tests and users' scripts.

It behaves like the SQLite store (the contract suite in tests/contract runs against both): the
same orders, the same replacement semantics, vectors rounded to float32, free-form JSON detail
normalized as JSON would, and a search that mimics FTS5 — word tokens folded for case and
accents, prefix match on a term's last word, OR across terms, ranked by bm25 with the column
weights name 10 / keywords 4 / text 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from orbitkb.domain.fakes.memory.facts import MemoryFacts
from orbitkb.domain.fakes.memory.runs import MemoryRunLog
from orbitkb.domain.fakes.memory.search import MemorySearchIndex
from orbitkb.domain.fakes.memory.vectors import MemoryCaches, MemoryEmbeddingStore
from orbitkb.domain.ports import NearestQuery, Retrieved, SearchQuery

SCHEMA_VERSION = 7  # the SQLite store's latest schema: the fake answers like a fresh database


class InMemoryKnowledgeStore(
    MemoryFacts, MemorySearchIndex, MemoryRunLog, MemoryEmbeddingStore, MemoryCaches
):
    """A KnowledgeStore held in dictionaries, one role per module (``fakes/memory/``, as
    ``ports/store.py`` names them). Thread-safe (one lock); nothing touches the disk."""

    # -- hybrid search: both answers under the one lock, as a database reads them in one transaction
    def retrieve(self, queries: Sequence[SearchQuery], nearest: NearestQuery | None = None) -> Retrieved:
        with self._lock:
            keyword = tuple(tuple(hits) for hits in self.search_many(queries))
            found = () if nearest is None else tuple(self.nearest_embeddings(
                nearest.model_id, nearest.vector, nearest.limit, nearest.floor, nearest.kinds))
        return Retrieved(keyword, found)

    # -- meta
    def schema_version(self) -> int:
        return SCHEMA_VERSION

    def close(self) -> None:
        pass
