"""Contract: the cosines of one query vector to listed owners — every store answers exactly what
the domain's pure-Python reference (``retrieval.similarities_to``) computes over its vectors."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.retrieval import similarities_to
from orbitkb.domain.runs import Embedding
from tests.support.stores import VECTOR_STORES, open_store

MODEL = "mini-test"
RUN = "run"
DIM = 16


@pytest.fixture(params=VECTOR_STORES)
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


def past_tasks(seed: int, count: int = 40) -> list[Embedding]:
    """Task vectors of past runs, plus the awkward ones: a zero vector, an owner with two fields,
    another model's vector and a vector of another dimension."""
    rnd = random.Random(seed)
    out = [Embedding("run", f"run:{i}", "task", f"t{i}", MODEL, tuple(rnd.uniform(-1, 1) for _ in range(DIM)))
           for i in range(count)]
    out.append(Embedding("run", "run:zero", "task", "tz", MODEL, (0.0,) * DIM))
    out.append(Embedding("run", "run:two", "task", "a", MODEL, out[0].vector))
    out.append(Embedding("run", "run:two", "text", "b", MODEL, tuple(-x for x in out[0].vector)))
    out.append(Embedding("run", "run:other-model", "task", "o", "another-model", out[1].vector))
    out.append(Embedding("run", "run:short", "task", "s", MODEL, out[2].vector[:DIM - 1]))
    out.append(Embedding("service", "svc:payments", "name", "p", MODEL, out[3].vector))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_similarities_are_the_reference_ones(store, seed):
    store.put_embeddings(past_tasks(seed))
    stored = store.list_embeddings(MODEL, RUN)  # float32 as stored
    rnd = random.Random(seed * 11)
    asked = [f"run:{i}" for i in range(0, 40, 3)] + ["run:zero", "run:two", "run:other-model", "run:short",
                                                     "svc:payments", "run:never-stored"]
    queries = [tuple(rnd.uniform(-1, 1) for _ in range(DIM)) for _ in range(4)] + [stored[0].vector]
    for query in queries:
        found = store.similarities(MODEL, query, RUN, asked)
        assert found == similarities_to(stored, query, asked)
        assert found["run:zero"] == 0.0
        # never stored, another model's, another dimension's, another kind's: left out
        left_out = ("run:never-stored", "run:other-model", "run:short", "svc:payments")
        assert set(found) == {o for o in asked if o not in left_out}


def test_an_owner_with_two_fields_gets_its_best(store):
    store.put_embeddings(past_tasks(3))
    query = store.list_embeddings(MODEL, RUN)[0].vector  # run:0's own vector: run:two's task field
    assert store.similarities(MODEL, query, RUN, ["run:two"]) == {"run:two": pytest.approx(1.0, abs=1e-9)}


def test_nothing_asked_nothing_stored_or_a_zero_query(store):
    assert store.similarities(MODEL, (1.0,) * DIM, RUN, ["run:1"]) == {}
    store.put_embeddings(past_tasks(4))
    assert store.similarities(MODEL, (1.0,) * DIM, RUN, []) == {}
    assert store.similarities("no-such-model", (1.0,) * DIM, RUN, ["run:1"]) == {}
    assert store.similarities(MODEL, (0.0,) * DIM, RUN, ["run:1", "run:2"]) == {"run:1": 0.0, "run:2": 0.0}


def test_many_owners_are_asked_in_chunks(store):
    rnd = random.Random(5)
    many = [Embedding("run", f"run:{i}", "task", f"t{i}", MODEL, tuple(rnd.uniform(-1, 1) for _ in range(DIM)))
            for i in range(1200)]
    store.put_embeddings(many)
    query = tuple(rnd.uniform(-1, 1) for _ in range(DIM))
    found = store.similarities(MODEL, query, RUN, [e.owner_id for e in many])
    assert len(found) == 1200 and found == similarities_to(store.list_embeddings(MODEL, RUN), query,
                                                           [e.owner_id for e in many])


def test_a_replaced_or_deleted_vector_is_not_answered_from_an_earlier_call(store):
    first = Embedding("run", "run:1", "task", "old text", MODEL, (1.0, 0.0) + (0.0,) * (DIM - 2))
    other = Embedding("run", "run:2", "task", "other", MODEL, (0.0, 1.0) + (0.0,) * (DIM - 2))
    store.put_embeddings([first, other])
    query = (1.0,) + (0.0,) * (DIM - 1)
    assert store.similarities(MODEL, query, RUN, ["run:1", "run:2"]) == {"run:1": 1.0, "run:2": 0.0}
    store.put_embeddings([Embedding("run", "run:1", "task", "new text", MODEL, (-1.0,) + (0.0,) * (DIM - 1))])
    assert store.similarities(MODEL, query, RUN, ["run:1", "run:2"]) == {"run:1": -1.0, "run:2": 0.0}
    store.delete_embeddings(["run:2"])
    assert store.similarities(MODEL, query, RUN, ["run:1", "run:2"]) == {"run:1": -1.0}
