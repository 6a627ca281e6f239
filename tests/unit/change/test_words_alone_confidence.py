"""How sure a lone primary matched by words alone is stated to be (change/classify.py
primary_confidence): its rule's measured rate on the real-history tune half (RULE_RATES). Once only
services named in full count as named, and measured where there was a choice (a system of one
service has a rule of its own), a lone primary whose words cover most of the task was right 27
times in 38; covering few words, or beside others, it is right less often."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.classify import RULE_RATES, primary_confidence


@pytest.mark.parametrize("coverage", [0.5, 0.75, 1.0])
def test_a_lone_word_match_covering_most_of_the_task_is_stated_its_measured_rate(coverage: float) -> None:
    conf = primary_confidence(1.0, coverage, named=False, alone=True)
    assert conf == RULE_RATES["words alone, most"]
    assert 0.6 <= conf < primary_confidence(1.0, coverage, named=True, alone=True)


def test_named_alone_stays_the_surest_and_few_words_or_company_stay_lower() -> None:
    assert primary_confidence(1.0, 1.0, named=True, alone=True) >= 0.8
    assert primary_confidence(1.0, 0.3, named=False, alone=True) < primary_confidence(1.0, 1.0, named=False, alone=True)
    assert primary_confidence(1.0, 1.0, named=False, alone=False) <= 0.6
    assert primary_confidence(1.0, 0.3, named=False, alone=False) < 0.5
    # a runner-up far below the leader is less sure than the leader
    assert primary_confidence(0.5, 1.0, named=False, alone=True) < primary_confidence(1.0, 1.0, named=False, alone=True)
