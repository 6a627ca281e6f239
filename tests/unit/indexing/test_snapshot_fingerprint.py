"""The snapshot fingerprint of an index is hashed item by item (issue 14: the whole repr of a
20,000-file repository's facts was the peak of a cold index's memory): the value is the one the
whole text gave, so a re-index after upgrading still sees an unchanged snapshot as unchanged."""

from __future__ import annotations

import pytest

from orbitkb.domain.ids import content_hash, repr_hash
from orbitkb.domain.model import Gap, Repository, Service
from orbitkb.domain.runs import IndexedFile


class WholeReprRefused(list):  # type: ignore[type-arg]
    """A part whose repr as a whole must never be built."""

    def __repr__(self) -> str:
        raise AssertionError("the whole part was turned into text")


SAMPLES = [
    [[Service("svc:1", "orders", "shop", "orders", "python")], [], [Gap("shop", "a.py", "parse_error", "bad")],
     [IndexedFile("shop", "orders/app.py", "ab" * 32, "python")]],
    [[], [], [], []],
    [["naïve café", "lone \ud800 surrogate", 3, None], [("tuple", 1.5)], [Repository("r", "/src/r", "none")]],
    [],
]


@pytest.mark.parametrize("parts", SAMPLES)
def test_the_fingerprint_is_the_hash_of_the_whole_repr(parts: list[list[object]]) -> None:
    assert repr_hash(parts) == content_hash(repr(parts))


def test_no_part_is_turned_into_text_as_a_whole() -> None:
    parts = [WholeReprRefused(["a", "b"]), WholeReprRefused([]), WholeReprRefused([1])]
    assert repr_hash(parts) == content_hash(repr([["a", "b"], [], [1]]))


def test_a_different_item_or_order_gives_a_different_fingerprint() -> None:
    assert repr_hash([["a", "b"]]) != repr_hash([["b", "a"]])
    assert repr_hash([["a"], []]) != repr_hash([[], ["a"]])
