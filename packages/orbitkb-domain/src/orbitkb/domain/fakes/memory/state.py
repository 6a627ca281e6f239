"""The tables of the in-memory store, shared by its roles under one lock: the facts of each
repository (and its search documents), the caches, the run log and the embeddings."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from orbitkb.domain.model import Gap, Repository, Resource, Service
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    ServiceIndexCost,
    Verification,
)

#: Children of a service -> the attribute naming their owner.
CHILD_KINDS = {
    "components": "service_id",
    "apis": "service_id",
    "calls": "from_service_id",
    "entities": "service_id",
    "messages": "service_id",
    "technologies": "service_id",
}


def by(*keys: str) -> Callable[[Any], tuple[Any, ...]]:
    return lambda obj: tuple(getattr(obj, k) for k in keys)


class MemoryAnalysisCache:
    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        return {k: self.items[k] for k in keys if k in self.items}

    def put_many(self, items: Mapping[str, str]) -> None:
        self.items.update(items)


class MemoryState:
    """Every table, one re-entrant lock, the id counters and the snapshot counter."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._repos: dict[str, Repository] = {}
        self._services: dict[str, Service] = {}
        self._children: dict[str, dict[str, Any]] = {k: {} for k in CHILD_KINDS}
        self._resources: dict[str, list[Resource]] = {}
        self._gaps: dict[str, list[Gap]] = {}
        self._files: dict[str, dict[str, IndexedFile]] = {}
        self._docs: dict[str, list[SearchDocument]] = {}
        self._cache = MemoryAnalysisCache()
        self._llm_cache: dict[str, str] = {}
        self._index_runs: dict[int, IndexRun] = {}
        self._index_costs: dict[tuple[int, str], ServiceIndexCost] = {}
        self._surface_runs: dict[int, ChangeSurfaceRun] = {}
        self._feedback: list[Feedback] = []
        self._verifications: dict[int, Verification] = {}
        self._architecture: dict[int, ArchitectureRun] = {}
        self._embeddings: dict[tuple[str, str, str, str], Embedding] = {}
        self._next_id = {"index": 1, "surface": 1, "verification": 1, "architecture": 1}
        self._snapshot = 0  # bumped by every write of facts or search documents

    def _changed(self) -> None:
        """The snapshot changed (the caller holds the lock): a new fingerprint."""
        self._snapshot += 1

    def _new_id(self, counter: str) -> int:
        value = self._next_id[counter]
        self._next_id[counter] = value + 1
        return value
