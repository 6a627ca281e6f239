"""The stores' vector products run on one BLAS thread (orbitkb.sql.blas): a query's product is
memory-bound and over in milliseconds, and BLAS helper threads spinning beside it cost more CPU than
they save. Outside the product the program keeps its own BLAS threads."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from orbitkb.domain.runs import Embedding
from orbitkb.sql import blas, vectors
from orbitkb.sqlite import SqliteKnowledgeStore

MODEL = "blas-test"


def blas_threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads():
    if not blas_threads():
        pytest.skip("numpy is not linked to a BLAS threadpoolctl can see")
    with threadpool_limits(limits=2, user_api="blas"):
        yield


def test_inside_the_block_blas_has_one_thread_and_after_it_has_its_own_again(two_blas_threads):
    before = blas_threads()
    with blas.one_thread():
        assert set(blas_threads()) == {1}
        product = np.ones((300, 8)) @ np.ones(8)
    assert blas_threads() == before
    assert product.tolist() == [8.0] * 300


def test_a_search_and_a_comparison_with_past_tasks_each_run_their_product_on_one_thread(tmp_path, monkeypatch,
                                                                                          two_blas_threads):
    seen: list[list[int]] = []

    @contextmanager
    def watched():
        with blas.one_thread():
            seen.append(blas_threads())
            yield

    monkeypatch.setattr(vectors, "one_thread", watched)
    store = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    try:
        store.put_embeddings([
            Embedding("service", "svc:ledger", "name", "h1", MODEL, (1.0, 0.0, 0.2)),
            Embedding("api", "api:refund", "name", "h2", MODEL, (0.1, 1.0, 0.0)),
            Embedding("run", "run:1", "task", "h3", MODEL, (0.9, 0.1, 0.1)),
        ])
        hits = store.nearest_embeddings(MODEL, (1.0, 0.1, 0.1), 5)
        assert [h.owner_id for h in hits][0] == "svc:ledger"
        assert len(seen) == 1 and set(seen[0]) == {1}
        sims = store.similarities(MODEL, (1.0, 0.1, 0.1), "run", ["run:1"])
        assert list(sims) == ["run:1"] and sims["run:1"] > 0.9
        assert len(seen) == 2 and set(seen[1]) == {1}
    finally:
        store.close()
    assert set(blas_threads()) == {2}
