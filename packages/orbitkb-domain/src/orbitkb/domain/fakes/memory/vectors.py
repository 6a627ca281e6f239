"""The in-memory ``EmbeddingStore`` and ``Caches``: vectors rounded to float32 as a database
stores them, nearest neighbours by the domain's own ranking, and the analysis and LLM caches."""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

import attrs

from orbitkb.domain.fakes.memory.state import MemoryState, by
from orbitkb.domain.ports import AnalysisCache
from orbitkb.domain.retrieval import rank_nearest, similarities_to
from orbitkb.domain.runs import Embedding, VectorHit


class MemoryEmbeddingStore(MemoryState):
    def list_embeddings(self, model_id: str, owner_kind: str | None = None) -> list[Embedding]:
        with self._lock:
            found = [
                e
                for e in self._embeddings.values()
                if e.model_id == model_id and owner_kind in (None, e.owner_kind)
            ]
        return sorted(found, key=by("owner_kind", "owner_id", "field"))

    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None:
        with self._lock:
            for e in embeddings:
                key = (e.model_id, e.owner_kind, e.owner_id, e.field)
                self._embeddings[key] = attrs.evolve(e, vector=_float32(e.vector))

    def count_embeddings(self, model_id: str) -> int:
        with self._lock:
            return sum(1 for key in self._embeddings if key[0] == model_id)

    def nearest_embeddings(
        self,
        model_id: str,
        vector: Sequence[float],
        limit: int,
        floor: float = -1.0,
        kinds: Sequence[str] | None = None,
    ) -> list[VectorHit]:
        facts = [e for e in self.list_embeddings(model_id) if e.owner_kind != "run"]  # runs are history
        return rank_nearest(facts, vector, limit, floor, kinds)

    def similarities(self, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        return similarities_to(self.list_embeddings(model_id, owner_kind), vector, owner_ids)

    def delete_embeddings(self, owner_ids: Sequence[str]) -> None:
        gone = set(owner_ids)
        with self._lock:
            for key in [k for k in self._embeddings if k[2] in gone]:
                del self._embeddings[key]


class MemoryCaches(MemoryState):
    def analysis_cache(self) -> AnalysisCache:
        return self._cache

    def get_llm_cache(self, key: str) -> str | None:
        return self._llm_cache.get(key)

    def put_llm_cache(self, key: str, value: str) -> None:
        with self._lock:
            self._llm_cache[key] = value


def _float32(vector: Iterable[float]) -> tuple[float, ...]:
    return tuple(array("f", vector))
