"""Candidate retrieval for a task: per-term keyword evidence weighted by rarity (a word that names
one service says more than a word every service has), semantic neighbours when an embedder is
installed (fused by Reciprocal Rank Fusion), hinted services, then expansion over calls and
message links, decaying with hops."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

from attrs import define, field

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.model import Service
from orbitkb.domain.retrieval import HybridRetriever, rrf
from orbitkb.domain.runs import SearchHit
from orbitkb.domain.text import stem, words

KIND_WEIGHT = {"service": 1.0, "api": 0.8, "entity": 0.75, "component": 0.7, "message": 0.65, "call": 0.35}
FIELD_WEIGHT = {"name_text": 1.0, "keywords": 0.7, "text": 0.5}
EDGE_DECAY = {"out": 0.4, "in": 0.3, "MESSAGE_LINK": 0.3}
MAX_TERMS = 16
SUPPORT = 0.25
PER_TERM_LIMIT = 80


@define
class Candidate:
    service: Service
    score: float = 0.0
    keyword: float = 0.0
    semantic: float = 0.0
    via: str = "match"  # match | hint | expansion
    matched_terms: set[str] = field(factory=set)
    hits: list[SearchHit] = field(factory=list)
    hops: int = 0
    reached_from: str | None = None
    edge_type: str | None = None
    channel: str | None = None


def task_terms(task: str) -> list[str]:
    seen: dict[str, None] = {}
    for w in words(task):
        if len(w) >= 2:
            seen.setdefault(w, None)
    return list(seen)[:MAX_TERMS]


def _by_service(catalog: ServiceCatalog) -> dict[str, Service]:
    return {s.name: s for s in catalog.services}


def retrieve(task: str, retriever: HybridRetriever, catalog: ServiceCatalog, graph: SystemGraph,
             hints: Sequence[Service] = ()) -> tuple[dict[str, Candidate], list[str]]:
    """Candidates by service name, and the task terms that matched nothing at all."""
    services = _by_service(catalog)
    n = max(len(services), 1)
    cands: dict[str, Candidate] = {}
    unmatched = []
    terms = task_terms(task)
    for term in terms:
        variants = sorted({term, stem(term)})
        hits = retriever.keyword(variants, PER_TERM_LIMIT)
        best: dict[str, tuple[float, SearchHit]] = {}
        for rank, h in enumerate(hits, 1):
            if h.service not in services:
                continue
            w = KIND_WEIGHT.get(h.kind, 0.3) * FIELD_WEIGHT.get(h.field, 0.5)
            if h.kind == "service" and h.field == "name_text":
                w *= 1.5  # the task names the service itself
            if rank > 50:
                w *= 0.5
            if w > best.get(h.service, (0.0, h))[0]:
                best[h.service] = (w, h)
        if not best:
            unmatched.append(term)
            continue
        strong = sum(1 for w, _ in best.values() if w >= 0.5) or len(best)
        idf = max(0.2, math.log((n + 1) / (strong + 0.5)))
        named = [name for name, (_, h) in best.items() if h.kind == "service" and h.field == "name_text"]
        # a word that names a service is rare among service names even when common in the text
        idf_named = max(0.2, math.log((n + 1) / (len(named) + 0.5)))
        for name, (w, h) in best.items():
            c = cands.setdefault(name, Candidate(services[name]))
            c.keyword += (idf_named if name in named else idf) * w
            c.matched_terms.add(term)
            c.hits.append(h)
    vector = retriever.vector(task, 60)
    if vector:
        sem: dict[str, float] = defaultdict(float)
        owners = {h.ref_id: h for h in retriever._fill_names(vector)}
        for h in owners.values():
            if h.service in services:
                sem[h.service] = max(sem[h.service], h.score)
        for name, sim in sem.items():
            c = cands.setdefault(name, Candidate(services[name]))
            c.semantic = sim
    _combine(cands)
    top = max((c.score for c in cands.values()), default=1.0) or 1.0
    for s in hints:
        c = cands.setdefault(s.name, Candidate(s))
        c.via = "hint"
        c.score = max(c.score, top)
    _expand(cands, graph, services)
    return cands, unmatched


def _combine(cands: dict[str, Candidate]) -> None:
    """Keyword and semantic evidence on one scale: each normalised by its best, blended, and the
    order checked against RRF so that neither retriever alone decides."""
    kmax = max((c.keyword for c in cands.values()), default=0.0) or 1.0
    smax = max((c.semantic for c in cands.values()), default=0.0) or 1.0
    has_sem = any(c.semantic for c in cands.values())
    fused = rrf([
        sorted((c for c in cands if cands[c].keyword), key=lambda k: -cands[k].keyword),
        sorted((c for c in cands if cands[c].semantic), key=lambda k: -cands[k].semantic),
    ])
    fmax = max(fused.values(), default=1.0) or 1.0
    for name, c in cands.items():
        if has_sem:
            blend = 0.65 * (c.keyword / kmax) + 0.35 * (c.semantic / smax)
            c.score = 0.8 * blend + 0.2 * (fused.get(name, 0.0) / fmax)
        else:
            c.score = c.keyword / kmax


def _expand(cands: dict[str, Candidate], graph: SystemGraph, services: dict[str, Service], hops: int = 2) -> None:
    frontier = sorted((c for c in cands.values() if c.score >= 0.3), key=lambda c: (-c.score, c.service.name))
    for hop in range(1, hops + 1):
        nxt = []
        for c in frontier:
            name = c.service.name
            neighbours = [(e.target, "out" if e.type != "MESSAGE_LINK" else "MESSAGE_LINK", e)
                          for e in graph.out.get(name, ()) if e.internal]
            neighbours += [(e.source, "in" if e.type != "MESSAGE_LINK" else "MESSAGE_LINK", e)
                           for e in graph.inc.get(name, ())]
            for other, kind, e in neighbours:
                if other not in services or other == name:
                    continue
                score = c.score * EDGE_DECAY[kind] ** hop if hop > 1 else c.score * EDGE_DECAY[kind]
                existing = cands.get(other)
                if existing is None:
                    existing = cands[other] = Candidate(services[other], via="expansion", hops=hop,
                                                        reached_from=name, edge_type=e.type, channel=e.channel)
                    existing.score = score
                    nxt.append(existing)
                elif existing.via == "expansion" and score > existing.score:
                    existing.score = score
                    existing.reached_from, existing.edge_type, existing.channel = name, e.type, e.channel
                elif existing.via == "match" and hop == 1 and not existing.reached_from:
                    # a matched service that a strong candidate depends on: corroborating evidence
                    existing.score += SUPPORT * score
                    existing.reached_from, existing.edge_type, existing.channel = name, e.type, e.channel
        frontier = [c for c in nxt if c.score >= 0.3]
