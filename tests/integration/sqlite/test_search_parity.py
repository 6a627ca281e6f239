"""The in-memory fake ranks like FTS5: same hits, same order, same bm25 scores on a random corpus.

Tests written against the fake therefore predict what users of the real store will see.
"""

from __future__ import annotations

import random

import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.model import Repository
from orbitkb.domain.ports import SearchDocument
from orbitkb.sqlite import SqliteKnowledgeStore

WORDS = "order orders payment refund invoice stock warehouse parcel carrier user account token ledger".split()


def corpus(rng: random.Random) -> list[SearchDocument]:
    def words(n: int) -> str:
        return " ".join(rng.choice(WORDS) for _ in range(n))

    return [
        SearchDocument(rng.choice(["api", "service", "call"]), f"ref-{i:03d}", f"svc:{i % 7}", f"svc-{i % 7}",
                       f"doc-{i:03d}", words(rng.randint(1, 3)), words(rng.randint(0, 4)), words(rng.randint(0, 12)))
        for i in range(80)
    ]  # fmt: skip


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fake_and_sqlite_agree_on_hits_order_and_scores(seed):
    rng = random.Random(seed)
    docs = corpus(rng)
    stores = [InMemoryKnowledgeStore(), SqliteKnowledgeStore(":memory:")]
    for store in stores:
        store.replace_repository_facts(Repository("r", "/r"), [], [], [], [], docs)
    for _ in range(15):
        terms = [rng.choice(WORDS)[: rng.randint(2, 7)] for _ in range(rng.randint(1, 3))]
        fake, real = (s.search(terms, limit=500) for s in stores)
        assert [h.ref_id for h in fake] == [h.ref_id for h in real], terms
        assert [h.score for h in fake] == pytest.approx([h.score for h in real], rel=1e-6), terms
        assert [h.field for h in fake] == [h.field for h in real], terms
    stores[1].close()
