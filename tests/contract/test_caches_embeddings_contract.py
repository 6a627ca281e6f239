"""Contract: analysis and LLM caches, stored embeddings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.runs import Embedding
from tests.support.stores import VECTOR_STORES, open_store


@pytest.fixture(params=VECTOR_STORES)
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    """Every store, and PostgreSQL with pgvector."""
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


def test_analysis_cache_batches(store):
    cache = store.analysis_cache()
    assert cache.get_many([]) == {} and cache.get_many(["nope"]) == {}
    items = {f"sha{i:05d}:v1": f'{{"n": {i}}}' for i in range(1300)}  # more than one IN chunk
    cache.put_many(items)
    cache.put_many({})
    assert cache.get_many(list(items) + ["missing"]) == items
    cache.put_many({"sha00007:v1": "changed"})
    assert store.analysis_cache().get_many(["sha00007:v1", "sha00008:v1"]) == {
        "sha00007:v1": "changed",
        "sha00008:v1": '{"n": 8}',
    }


def test_llm_cache(store):
    assert store.get_llm_cache("k") is None
    store.put_llm_cache("k", '{"answer": "ü"}')
    store.put_llm_cache("k2", "x")
    store.put_llm_cache("k", "second")
    assert (store.get_llm_cache("k"), store.get_llm_cache("k2")) == ("second", "x")


def emb(kind: str, owner: str, field: str, vector: tuple[float, ...], model: str = "bge-small") -> Embedding:
    return Embedding(kind, owner, field, f"hash-{owner}-{field}", model, vector)


def test_embeddings_put_list_replace_and_delete(store):
    store.put_embeddings(
        [
            emb("service", "svc:b", "summary", (0.5, -0.25, 1.0)),
            emb("api", "api:a", "summary", (0.0, 2.0, -1.5)),
            emb("service", "svc:a", "summary", (1.0, 0.0, 0.0)),
            emb("service", "svc:a", "description", (0.0, 1.0, 0.0)),
            emb("service", "svc:a", "summary", (9.0, 9.0), model="other-model"),
        ]
    )
    listed = store.list_embeddings("bge-small")
    assert [(e.owner_kind, e.owner_id, e.field) for e in listed] == [
        ("api", "api:a", "summary"),
        ("service", "svc:a", "description"),
        ("service", "svc:a", "summary"),
        ("service", "svc:b", "summary"),
    ]
    assert listed[-1] == emb("service", "svc:b", "summary", (0.5, -0.25, 1.0)) and listed[-1].dim == 3
    assert [e.owner_id for e in store.list_embeddings("bge-small", owner_kind="api")] == ["api:a"]
    assert store.list_embeddings("unknown-model") == []
    store.put_embeddings([emb("service", "svc:b", "summary", (0.1, 0.2, 0.3))])
    (b,) = [e for e in store.list_embeddings("bge-small") if e.owner_id == "svc:b"]
    assert b.vector == pytest.approx((0.1, 0.2, 0.3), rel=1e-6)  # float32 precision
    store.delete_embeddings(["svc:a", "nobody"])
    assert [e.owner_id for e in store.list_embeddings("bge-small")] == ["api:a", "svc:b"]
    assert store.list_embeddings("other-model") == []
    store.delete_embeddings([])
    store.put_embeddings([])
    assert len(store.list_embeddings("bge-small")) == 2


def test_many_embeddings_are_deleted_in_chunks(store):
    store.put_embeddings([emb("api", f"api:{i}", "summary", (float(i),)) for i in range(1200)])
    store.delete_embeddings([f"api:{i}" for i in range(1, 1200)])
    assert [e.owner_id for e in store.list_embeddings("bge-small")] == ["api:0"]
