"""Stems: the same light suffix rules for every word, a short word stemmed once per process (a
change-surface request stems the same task, API and service words hundreds of times)."""

from __future__ import annotations

import pytest

from orbitkb.domain import text
from orbitkb.domain.text import stem


@pytest.mark.parametrize(("word", "expected"), [
    ("payments", "payment"),
    ("Categories", "categor"),  # any case: the stem is lower case
    ("boxes", "box"),
    ("matches", "match"),
    ("shipping", "shipp"),
    ("archived", "archiv"),
    ("status", "status"),  # not a plural
    ("address", "address"),
    ("ring", "ring"),  # too short to lose -ing
    ("", ""),
])
def test_the_suffix_rules_are_the_same_for_every_word(word: str, expected: str) -> None:
    assert stem(word) == expected
    assert stem(word) == expected  # remembered: the same answer the second time


def test_a_short_word_is_stemmed_once_and_a_long_one_is_not_kept() -> None:
    text._stem_short.cache_clear()
    for _ in range(3):
        assert stem("Invoices") == "invoice"
    assert text._stem_short.cache_info().hits == 2
    long_word = "refunds" * 20  # a token of generated code: stemmed, never held
    assert stem(long_word) == long_word.lower()[:-1]
    assert text._stem_short.cache_info().currsize == 1


def test_the_remembered_words_are_bounded() -> None:
    assert text._stem_short.cache_info().maxsize == 1 << 16
