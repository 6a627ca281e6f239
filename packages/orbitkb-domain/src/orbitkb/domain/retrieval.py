"""Hybrid retrieval: bm25 (the store's full-text index) and cosine over local embeddings, fused
by Reciprocal Rank Fusion (k=60). Without an embedder it is keyword-only, same answer shape."""

from __future__ import annotations

import math
import operator
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from attrs import evolve

from orbitkb.domain.ids import content_hash
from orbitkb.domain.ports import Embedder, FactsReader, KnowledgeStore, NearestQuery, SearchQuery
from orbitkb.domain.runs import Embedding, SearchHit, VectorHit
from orbitkb.domain.system_model import SystemModel

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
    dot = sum(map(operator.mul, a, b))  # the same sums in the same order, without a generator
    na = math.sqrt(sum(map(operator.mul, a, a)))
    nb = math.sqrt(sum(map(operator.mul, b, b)))
    return dot / (na * nb) if na and nb else 0.0


#: Similarities are compared rounded to this many digits, so that two ways of summing the same
#: products (one float at a time here, a matrix product in a store) rank ties the same way.
RANK_DIGITS = 12


def rank_nearest(embeddings: Iterable[Embedding], query: Sequence[float], limit: int, floor: float = -1.0,
                 kinds: Sequence[str] | None = None) -> list[VectorHit]:
    """The reference ranking of nearest vectors: per owner its best field (the first listed on a
    tie), kept when its cosine reaches ``floor``, ranked by similarity then owner id. A vector of
    another dimension than the query was made by another model and is skipped."""
    best: dict[str, VectorHit] = {}
    for e in embeddings:
        if (kinds and e.owner_kind not in kinds) or len(e.vector) != len(query):
            continue
        sim = round(cosine(query, e.vector), RANK_DIGITS)
        held = best.get(e.owner_id)
        if sim >= floor and (held is None or sim > held.similarity):
            best[e.owner_id] = VectorHit(e.owner_kind, e.owner_id, e.field, sim)
    return sorted(best.values(), key=lambda h: (-h.similarity, h.owner_id))[:max(limit, 0)]


def similarities_to(embeddings: Iterable[Embedding], query: Sequence[float],
                    owner_ids: Iterable[str]) -> dict[str, float]:
    """The reference answer of ``EmbeddingStore.similarities``: for each listed owner that has a
    vector of the query's dimension, its best field's cosine to ``query``, rounded as ranked."""
    wanted = set(owner_ids)
    found: dict[str, float] = {}
    for e in embeddings:
        if e.owner_id in wanted and len(e.vector) == len(query):
            sim = round(cosine(query, e.vector), RANK_DIGITS)
            if sim > found.get(e.owner_id, -math.inf):
                found[e.owner_id] = sim
    return found


def _key(h: SearchHit) -> str:
    return f"{h.kind}\x1f{h.ref_id}"


class KeywordAnswers:
    """bm25 answers by query, at most ``size`` (least recently used go first). An answer depends
    only on the snapshot's search documents, so one table per snapshot serves every request."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._held: OrderedDict[SearchQuery, tuple[SearchHit, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, query: SearchQuery) -> tuple[SearchHit, ...] | None:
        with self._lock:
            found = self._held.get(query)
            if found is not None:
                self._held.move_to_end(query)
            return found

    def put(self, query: SearchQuery, hits: Sequence[SearchHit]) -> None:
        with self._lock:
            self._held[query] = tuple(hits)
            self._held.move_to_end(query)
            while len(self._held) > self._size:
                self._held.popitem(last=False)


class HybridRetriever:
    """One request's retrieval. Keyword answers are kept (``prefetch`` asks the store for many at
    once): for the request, or for the snapshot when ``facts`` is a SystemModel — which also
    names the owners of vector-only hits without reading the store. The query's vector is
    computed once per request."""

    def __init__(self, store: KnowledgeStore, embedder: Embedder | None = None,
                 facts: FactsReader | SystemModel | None = None, embeds_anyway: bool = False) -> None:
        """``embeds_anyway``: the caller embeds the query text whatever happens (to record it), so
        the store is not first asked whether anything is embedded (one read less)."""
        self.store = store
        self.embedder = embedder
        self.facts: FactsReader | SystemModel = facts if facts is not None else store
        self._has_vectors: bool | None = True if embeds_anyway else None
        self._keyword = (facts.derived("keyword_answers", KeywordAnswers) if isinstance(facts, SystemModel)
                         else KeywordAnswers())
        self._vectors: dict[str, list[float]] = {}
        self._nearest: dict[tuple[str, int], list[VectorHit]] = {}

    @property
    def mode(self) -> str:
        return "hybrid" if self.embedder is not None else "keyword"

    def keyword(self, terms: Sequence[str], limit: int, kinds: Sequence[str] | None = None,
                snippets: bool = True) -> list[SearchHit]:
        if not terms:
            return []
        query = SearchQuery(tuple(terms), limit, tuple(kinds) if kinds is not None else None, snippets)
        found = self._keyword.get(query)
        if found is None:
            found = tuple(self.store.search(terms, limit=limit, kinds=kinds) if snippets
                          else self.store.search_many([query])[0])
            self._keyword.put(query, found)
        return list(found)

    def prefetch(self, queries: Sequence[SearchQuery], vector_of: str = "", vector_limit: int = 0) -> None:
        """Ask the store once for every query not answered yet; ``keyword`` then reads them here.
        With ``vector_of``, the nearest vectors to that text (``vector(vector_of, vector_limit)``)
        come in the same read when there are vectors to search."""
        todo = list(dict.fromkeys(q for q in queries if q.terms and self._keyword.get(q) is None))
        nearest = self._nearest_query(vector_of, vector_limit) if vector_of and vector_limit > 0 else None
        if nearest is not None:
            got = self.store.retrieve(todo, nearest)
            self._nearest[(vector_of, vector_limit)] = list(got.nearest)
            answers: Sequence[Sequence[SearchHit]] = got.keyword
        elif todo:
            answers = self.store.search_many(todo)
        else:
            return
        for query, hits in zip(todo, answers, strict=True):
            self._keyword.put(query, tuple(hits))

    def _nearest_query(self, text: str, limit: int, kinds: Sequence[str] | None = None) -> NearestQuery | None:
        """The store's vector query for ``text``, or None when nothing is embedded to compare it
        with (no model is then loaded to embed it)."""
        if self.embedder is None or not text.strip():
            return None
        if self._has_vectors is None:  # nothing embedded: do not load a model to embed the query
            self._has_vectors = self.store.count_embeddings(self.embedder.model_id) > 0
        if not self._has_vectors:
            return None
        return NearestQuery(self.embedder.model_id, tuple(self.embed(text)), limit, SIMILARITY_FLOOR,
                            tuple(kinds) if kinds is not None else None)

    def embedded(self, text: str) -> list[float] | None:
        """``text``'s vector if this request computed it already (never computes one)."""
        return self._vectors.get(text)

    def embed(self, text: str) -> list[float]:
        """The embedder's vector of ``text``, computed once per request."""
        if self.embedder is None:
            raise ValueError("no embedder: keyword retrieval only")
        if text not in self._vectors:
            self._vectors[text] = list(self.embedder.embed([text])[0])
        return self._vectors[text]

    def vector(self, query: str, limit: int, kinds: Sequence[str] | None = None) -> list[SearchHit]:
        fetched = self._nearest.get((query, limit)) if kinds is None else None
        if fetched is not None:
            ranked = fetched
        else:
            nq = self._nearest_query(query, limit, kinds)
            if nq is None:
                return []
            ranked = self.store.nearest_embeddings(nq.model_id, nq.vector, nq.limit, nq.floor, nq.kinds)
        return [SearchHit(h.owner_kind, "", h.owner_id, round(h.similarity, 4), f"vector:{h.field}", None, h.owner_id)
                for h in ranked]

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
        facts = self.facts
        index = (facts.derived("owner_index", lambda: _owner_index(facts)) if isinstance(facts, SystemModel)
                 else _owner_index(facts))
        return [evolve(h, service=index.get(h.ref_id or "", ("?", h.ref_id or ""))[0],
                       name=index.get(h.ref_id or "", ("?", h.ref_id or ""))[1]) if not h.service else h
                for h in hits]


def _owner_index(store: FactsReader) -> dict[str, tuple[str, str]]:
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
