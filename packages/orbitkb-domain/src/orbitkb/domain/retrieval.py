"""Hybrid retrieval: bm25 (the store's full-text index) and cosine over local embeddings, fused
by Reciprocal Rank Fusion (k=60). Without an embedder it is keyword-only, same answer shape."""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import evolve

from orbitkb.domain.ids import content_hash
from orbitkb.domain.ports import Embedder, KnowledgeStore
from orbitkb.domain.runs import Embedding, SearchHit

RRF_K = 60
SIMILARITY_FLOOR = 0.25  # below this a vector neighbour is noise (checked on the benchmark)


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal Rank Fusion: score(d) = sum over lists of 1 / (k + rank(d)), rank from 1."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, 1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (k + rank)
    return scores


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na = math.sqrt(sum(x * x for x in a))
    nb = math.sqrt(sum(y * y for y in b))
    return dot / (na * nb) if na and nb else 0.0


def _key(h: SearchHit) -> str:
    return f"{h.kind}\x1f{h.ref_id}"


class HybridRetriever:
    def __init__(self, store: KnowledgeStore, embedder: Embedder | None = None) -> None:
        self.store = store
        self.embedder = embedder
        self._vectors: list[Embedding] | None = None

    @property
    def mode(self) -> str:
        return "hybrid" if self.embedder is not None else "keyword"

    def keyword(self, terms: Sequence[str], limit: int, kinds: Sequence[str] | None = None) -> list[SearchHit]:
        return self.store.search(terms, limit=limit, kinds=kinds) if terms else []

    def vector(self, query: str, limit: int, kinds: Sequence[str] | None = None) -> list[SearchHit]:
        if self.embedder is None or not query.strip():
            return []
        if self._vectors is None:
            self._vectors = self.store.list_embeddings(self.embedder.model_id)
        if not self._vectors:
            return []
        qv = self.embedder.embed([query])[0]
        best: dict[str, tuple[float, Embedding]] = {}
        for e in self._vectors:
            if kinds and e.owner_kind not in kinds:
                continue
            sim = cosine(qv, e.vector)
            if sim >= SIMILARITY_FLOOR and sim > best.get(e.owner_id, (-1.0, e))[0]:
                best[e.owner_id] = (sim, e)
        ranked = sorted(best.values(), key=lambda x: (-x[0], x[1].owner_id))[:limit]
        return [SearchHit(e.owner_kind, "", e.owner_id, round(sim, 4), f"vector:{e.field}", None, e.owner_id)
                for sim, e in ranked]

    def search(self, query: str, terms: Sequence[str], limit: int = 20,
               kinds: Sequence[str] | None = None) -> list[SearchHit]:
        kw = self.keyword(terms, max(limit * 3, 50), kinds)
        vec = self.vector(query, max(limit * 3, 50), kinds)
        if not vec:
            return kw[:limit]
        by_key = {_key(h): h for h in vec}
        by_key.update({_key(h): h for h in kw})  # keyword hits carry service/name/snippet
        fused = rrf([[_key(h) for h in kw], [_key(h) for h in vec]])
        order = sorted(fused, key=lambda key: (-fused[key], key))[:limit]
        out = []
        for key in order:
            h = by_key[key]
            out.append(evolve(h, score=round(fused[key] * 1000, 3)))
        return self._fill_names(out)

    def _fill_names(self, hits: list[SearchHit]) -> list[SearchHit]:
        """Vector-only hits know their owner id; give them their service and name."""
        missing = [h for h in hits if not h.service]
        if not missing:
            return hits
        index = _owner_index(self.store)
        return [evolve(h, service=index.get(h.ref_id or "", ("?", h.ref_id or ""))[0],
                       name=index.get(h.ref_id or "", ("?", h.ref_id or ""))[1]) if not h.service else h
                for h in hits]


def _owner_index(store: KnowledgeStore) -> dict[str, tuple[str, str]]:
    names = {s.id: s.name for s in store.list_services()}
    out: dict[str, tuple[str, str]] = {sid: (n, n) for sid, n in names.items()}
    for a in store.list_apis():
        out[a.id] = (names.get(a.service_id, "?"), f"{a.method} {a.path}")
    for c in store.list_components():
        out[c.id] = (names.get(c.service_id, "?"), c.name)
    for e in store.list_entities():
        out[e.id] = (names.get(e.service_id, "?"), e.name)
    for m in store.list_messages():
        out[m.id] = (names.get(m.service_id, "?"), m.channel)
    for call in store.list_calls():
        out[call.id] = (names.get(call.from_service_id, "?"), call.target)
    return out


def embedding_texts(doc_name: str, keywords: str, text: str) -> dict[str, str]:
    """Per-field texts of one search document: its name (+keywords) and its prose."""
    fields = {"name": " ".join(x for x in (doc_name, keywords) if x).strip()}
    if text.strip():
        fields["text"] = text.strip()[:2000]
    return fields


def text_hash(model_id: str, text: str) -> str:
    return content_hash(model_id + "\x1f" + text)[:32]
