"""Contract: nearest vectors by cosine — the same ranking in every store, and the same as before
the stores ranked them (a pure-Python loop over every stored vector)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.retrieval import rank_nearest
from orbitkb.domain.runs import Embedding, VectorHit
from tests.support.stores import VECTOR_STORES, open_store

MODEL = "mini-test"


@pytest.fixture(params=VECTOR_STORES)
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    """Every store, and PostgreSQL with pgvector."""
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


def legacy_rank(embeddings: list[Embedding], query: tuple[float, ...], limit: int, floor: float,
                kinds: tuple[str, ...] | None) -> list[tuple[str, str, float]]:
    """The ranking HybridRetriever computed itself before stores did it (kept as the oracle)."""
    def cos(a: tuple[float, ...], b: tuple[float, ...]) -> float:
        dot = sum(x * y for x, y in zip(a, b))
        na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(y * y for y in b))
        return dot / (na * nb) if na and nb else 0.0

    best: dict[str, tuple[float, Embedding]] = {}
    for e in embeddings:
        if kinds and e.owner_kind not in kinds:
            continue
        sim = cos(query, e.vector)
        if sim >= floor and sim > best.get(e.owner_id, (-1.0, e))[0]:
            best[e.owner_id] = (sim, e)
    ranked = sorted(best.values(), key=lambda x: (-x[0], x[1].owner_id))[:limit]
    return [(e.owner_id, e.field, round(sim, 4)) for sim, e in ranked]


def corpus(seed: int, owners: int = 120, dim: int = 24) -> list[Embedding]:
    rnd = random.Random(seed)
    out = []
    for i in range(owners):
        kind = ("service", "api", "message", "entity")[i % 4]
        for field in ("name", "text")[: 1 + i % 2]:
            vector = tuple(rnd.uniform(-1, 1) for _ in range(dim))
            out.append(Embedding(kind, f"{kind}:{i:03d}", field, f"h{i}{field}", MODEL, vector))
    # exact ties: the same text embedded for two owners, and twice for one owner's two fields
    out.append(Embedding("api", "api:dup-b", "name", "hd", MODEL, out[0].vector))
    out.append(Embedding("api", "api:dup-a", "name", "hd", MODEL, out[0].vector))
    out.append(Embedding("api", "api:two", "name", "ht", MODEL, out[3].vector))
    out.append(Embedding("api", "api:two", "text", "ht", MODEL, out[3].vector))
    out.append(Embedding("entity", "entity:zero", "name", "hz", MODEL, (0.0,) * dim))
    return out


def hits(found: list[VectorHit]) -> list[tuple[str, str, float]]:
    return [(h.owner_id, h.field, round(h.similarity, 4)) for h in found]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ranking_is_identical_to_the_pure_python_one(store, seed):
    vectors = corpus(seed)
    store.put_embeddings(vectors)
    stored = store.list_embeddings(MODEL)  # float32 as stored, in list order
    rnd = random.Random(seed * 7)
    queries = [tuple(rnd.uniform(-1, 1) for _ in range(24)) for _ in range(5)] + [vectors[0].vector,
                                                                                   vectors[3].vector]
    for query in queries:
        for limit, floor, kinds in ((10, 0.25, None), (500, -1.0, None), (7, 0.0, ("api", "entity")),
                                    (3, 0.1, ("service",)), (0, -1.0, None)):
            expected = legacy_rank(stored, query, limit, floor, kinds)
            found = store.nearest_embeddings(MODEL, query, limit, floor, kinds)
            assert hits(found) == expected
            assert found == rank_nearest(stored, query, limit, floor, kinds)


def test_ties_rank_by_owner_id_and_keep_the_first_field(store):
    store.put_embeddings(corpus(5))
    query = corpus(5)[0].vector
    top = store.nearest_embeddings(MODEL, query, 3)
    assert [h.owner_id for h in top[:2]] == ["api:dup-a", "api:dup-b"]
    assert top[0].similarity == pytest.approx(1.0) and top[0].similarity == top[1].similarity
    two = store.nearest_embeddings(MODEL, corpus(5)[3].vector, 1)
    assert (two[0].owner_id, two[0].field) in {("api:two", "name"), ("api:003", "name")}
    assert [h for h in store.nearest_embeddings(MODEL, corpus(5)[3].vector, 5) if h.owner_id == "api:two"][0].field == "name"


def test_writes_are_seen_by_the_next_query(store):
    a = Embedding("service", "svc:a", "name", "ha", MODEL, (1.0, 0.0, 0.0))
    b = Embedding("service", "svc:b", "name", "hb", MODEL, (0.0, 1.0, 0.0))
    assert store.count_embeddings(MODEL) == 0 and store.nearest_embeddings(MODEL, (1.0, 0.0, 0.0), 5) == []
    store.put_embeddings([a, b])
    assert store.count_embeddings(MODEL) == 2 and store.count_embeddings("other-model") == 0
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.1, 0.0), 5, 0.5)] == ["svc:a"]
    store.put_embeddings([Embedding("service", "svc:b", "name", "hb2", MODEL, (1.0, 0.2, 0.0))])  # rewritten
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.1, 0.0), 5, 0.5)] == ["svc:b", "svc:a"]
    store.delete_embeddings(["svc:a"])
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.1, 0.0), 5, 0.5)] == ["svc:b"]
    store.put_embeddings([Embedding("api", "api:c", "name", "hc", "other-model", (1.0, 0.1, 0.0))])
    assert [h.owner_id for h in store.nearest_embeddings("other-model", (1.0, 0.1, 0.0), 5)] == ["api:c"]
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.1, 0.0), 5, 0.5)] == ["svc:b"]


def test_a_query_of_another_dimension_or_all_zeros(store):
    store.put_embeddings([Embedding("service", "svc:a", "name", "ha", MODEL, (1.0, 0.0, 0.0)),
                          Embedding("service", "svc:b", "name", "hb", MODEL, (0.5, 0.5, 0.0, 0.0))])
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.0, 0.0, 0.0), 5)] == ["svc:b"]
    assert [h.owner_id for h in store.nearest_embeddings(MODEL, (1.0, 0.0), 5)] == []
    zero = store.nearest_embeddings(MODEL, (0.0, 0.0, 0.0), 5)
    assert [(h.owner_id, h.similarity) for h in zero] == [("svc:a", 0.0)]
    assert store.nearest_embeddings(MODEL, (0.0, 0.0, 0.0), 5, floor=0.25) == []
