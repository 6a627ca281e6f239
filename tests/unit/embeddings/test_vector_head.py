"""The nearest vectors sort only the head of the ranking that can hold the owners asked for
(orbitkb.sql.vectors.best_first): the answer must be the one a full sort of every row gives, with
ties at the cut, owners with many rows, a filter that leaves few rows and limits past the end."""

from __future__ import annotations

import numpy as np
import pytest

from orbitkb.sql.vectors import HEAD_MIN, best_first


def full_sort(idx, sims, owner_rank, owners, limit):
    """The oracle: every row sorted (similarity, then owner id, then row), first row per owner."""
    order = idx[np.lexsort((idx, owner_rank[idx], -sims[idx]))]
    out, seen = [], set()
    for i in order.tolist():
        if owners[i] not in seen:
            seen.add(owners[i])
            out.append(i)
    return out[:limit]


def rows(seed: int, n: int, owners_count: int, digits: int):
    rnd = np.random.default_rng(seed)
    owner_of = rnd.integers(0, owners_count, n)
    owners = tuple(f"api:{o:05d}" for o in owner_of)
    rank = {o: i for i, o in enumerate(sorted(set(owners)))}
    sims = np.round(rnd.uniform(-1, 1, n), digits)  # few digits: many exact ties
    return sims, np.array([rank[o] for o in owners], dtype=np.int64), owners


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("n", "owners_count", "digits"), [(5000, 4000, 6), (5000, 300, 2), (3000, 40, 1),
                                                            (HEAD_MIN + 7, 10, 3)])
def test_the_head_gives_what_a_full_sort_gives(seed, n, owners_count, digits):
    sims, owner_rank, owners = rows(seed, n, owners_count, digits)
    for floor in (-1.0, 0.0, 0.9):
        idx = np.flatnonzero(sims >= floor)
        for limit in (1, 7, 60, 150, owners_count, owners_count + 5):
            assert best_first(idx, sims, owner_rank, owners, limit) == full_sort(idx, sims, owner_rank, owners,
                                                                                 limit)


def test_owners_with_many_rows_widen_the_head():
    # 12 owners of 100 rows each, the best 1,100 rows belong to 11 of them: the twelfth is found
    # only past a head of max(4 * 12, 256) rows
    owners = tuple(f"svc:{i // 100:02d}" for i in range(1200))
    sims = np.array([1.0 - i / 10_000 if i < 1100 else 0.5 - i / 100_000 for i in range(1200)])
    owner_rank = np.array([i // 100 for i in range(1200)], dtype=np.int64)
    idx = np.arange(1200)
    found = best_first(idx, sims, owner_rank, owners, 12)
    assert [owners[i] for i in found] == [f"svc:{k:02d}" for k in range(12)]
    assert found == full_sort(idx, sims, owner_rank, owners, 12)


def test_ties_at_the_cut_stay_in_the_head_and_break_by_owner_then_row():
    # every row as good as every other: the order is owner id, then the first row of each
    n = HEAD_MIN * 3
    owners = tuple(f"api:{(n - i) % 500:03d}" for i in range(n))
    rank = {o: i for i, o in enumerate(sorted(set(owners)))}
    owner_rank = np.array([rank[o] for o in owners], dtype=np.int64)
    sims = np.full(n, 0.25)
    idx = np.arange(n)
    assert best_first(idx, sims, owner_rank, owners, 5) == full_sort(idx, sims, owner_rank, owners, 5)
    assert [owners[i] for i in best_first(idx, sims, owner_rank, owners, 3)] == ["api:000", "api:001", "api:002"]


def test_nothing_kept_or_nothing_asked_is_empty():
    sims, owner_rank, owners = rows(4, 400, 50, 3)
    assert best_first(np.flatnonzero(sims > 2.0), sims, owner_rank, owners, 10) == []
