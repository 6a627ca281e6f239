"""Contract: one read for what a hybrid request asks — ``retrieve`` answers a keyword batch and a
vector query exactly as ``search_many`` and ``nearest_embeddings`` answer them apart, and the change
history read with a task's vector carries each past task's cosine to it exactly as ``similarities``
computes them (and no vectors)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from orbitkb.domain.ports import KnowledgeStore, NearestQuery, SearchQuery
from orbitkb.domain.runs import ChangeSurfaceRun, Embedding
from tests.support.stores import VECTOR_STORES, open_store

MODEL = "mini-test"
DIM = 12


@pytest.fixture(params=VECTOR_STORES)
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


def vector(rnd: random.Random) -> tuple[float, ...]:
    return tuple(rnd.uniform(-1, 1) for _ in range(DIM))


@pytest.fixture
def filled(store, samples) -> KnowledgeStore:
    """Two services with their search documents, vectors of facts of several kinds, and three past
    tasks of which two were embedded."""
    samples.replace(store, "shop", [samples.service_facts("shop", "payments"), samples.service_facts("shop", "orders")])
    rnd = random.Random(7)
    facts = [Embedding(kind, f"{kind}:{i}", field, f"h{kind}{i}{field}", MODEL, vector(rnd))
             for i, kind in enumerate(("service", "api", "entity", "message", "service", "api"))
             for field in ("name", "text")]
    store.put_embeddings(facts)
    ids = [store.add_change_surface_run(ChangeSurfaceRun(None, f"task {i}", "2024-01-01T00:00:00Z")) for i in range(3)]
    store.put_embeddings([Embedding("run", f"run:{i}", "task", f"t{i}", MODEL, vector(rnd)) for i in ids[:2]])
    return store


QUERIES = (SearchQuery(("payments",), 10), SearchQuery(("orders",), 5, ("service",), snippets=False),
           SearchQuery(("nothing-matches-this",), 5), SearchQuery((), 5))


@pytest.mark.parametrize("kinds", [None, ("api", "entity")])
def test_retrieve_answers_as_the_two_reads_apart(filled, kinds):
    query = NearestQuery(MODEL, vector(random.Random(3)), 4, -1.0, kinds)
    got = filled.retrieve(QUERIES, query)
    assert [list(hits) for hits in got.keyword] == filled.search_many(QUERIES)
    assert any(got.keyword[0]) and not got.keyword[2]
    assert list(got.nearest) == filled.nearest_embeddings(MODEL, query.vector, 4, -1.0, kinds)
    assert len(got.nearest) == (4 if kinds is None else 3) and all(h.owner_kind != "run" for h in got.nearest)
    if kinds:
        assert {h.owner_kind for h in got.nearest} <= set(kinds)


def test_retrieve_without_a_vector_query_or_without_keyword_queries(filled):
    alone = filled.retrieve(QUERIES)
    assert [list(h) for h in alone.keyword] == filled.search_many(QUERIES) and alone.nearest == ()
    query = NearestQuery(MODEL, vector(random.Random(4)), 3, 0.2)
    only = filled.retrieve([], query)
    assert only.keyword == () and list(only.nearest) == filled.nearest_embeddings(MODEL, query.vector, 3, 0.2)
    assert filled.retrieve([], NearestQuery("no-such-model", query.vector, 3)).nearest == ()


def test_history_read_with_the_task_vector_carries_the_cosines_not_the_vectors(filled):
    task = vector(random.Random(5))
    plain = filled.change_history(model_id=MODEL)
    withsims = filled.change_history(model_id=MODEL, task_vector=task)
    assert withsims.runs == plain.runs and withsims.feedback == plain.feedback
    assert plain.task_similarities is None and len(plain.task_vectors) == 2
    assert withsims.task_vectors == {}
    assert withsims.task_similarities == filled.similarities(MODEL, task, "run", plain.run_keys())
    assert len(withsims.task_similarities) == 2  # the third past task was never embedded
    # another model's vectors are not this task's neighbours; without a model nothing is compared
    assert filled.change_history(model_id="another-model", task_vector=task).task_similarities == {}
    assert filled.change_history(task_vector=task).task_similarities is None
