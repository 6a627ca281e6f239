"""How sure a lone primary matched by words alone is stated to be (change/classify.py
primary_confidence): once only services named in full count as named, a lone primary whose words
cover most of the task was right 0.83 of the time on the real-history tune half — about three in
four, never the >= 0.8 bucket, which stays for a service the task names."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.classify import primary_confidence


@pytest.mark.parametrize("coverage", [0.5, 0.75, 1.0])
def test_a_lone_word_match_covering_most_of_the_task_is_stated_about_three_in_four(coverage: float) -> None:
    conf = primary_confidence(1.0, coverage, named=False, alone=True)
    assert 0.7 <= conf < 0.8


def test_named_alone_stays_the_surest_and_few_words_or_company_stay_lower() -> None:
    assert primary_confidence(1.0, 1.0, named=True, alone=True) >= 0.8
    assert primary_confidence(1.0, 0.3, named=False, alone=True) < 0.5
    assert primary_confidence(1.0, 1.0, named=False, alone=False) <= 0.5
    # a runner-up far below the leader is less sure than the leader
    assert primary_confidence(0.5, 1.0, named=False, alone=True) < primary_confidence(1.0, 1.0, named=False, alone=True)
