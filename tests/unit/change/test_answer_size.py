"""The answer's size (change/sizing.py): every service gets a probability of changing, and the
answer grows, most likely first, while its expected F1 grows; the rules' findings are never dropped,
and a task that matches nothing stays empty whatever the probabilities say."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.candidates import Candidate
from orbitkb.domain.change.classify import Classified
from orbitkb.domain.change.ranking import (
    FEATURES,
    SIZING_FEATURES,
    RankingModel,
    SizingModel,
    model_from,
    sizing_from,
)
from orbitkb.domain.change.sizing import GROWS, MAX_ADDED, expected_f1, grow, grows
from orbitkb.domain.model import Service
from orbitkb.domain.usecases.change_surface import FindChangeSurface

from .seed import seeded_store


def sized(bias: float, **weights: float) -> RankingModel:
    """The mix of today's rules (every candidate kept) with an answer size of ``bias`` (+ weights)."""
    return RankingModel(dict.fromkeys(FEATURES, 0.0), 0.0, 0.0, 1.01,
                        SizingModel({**dict.fromkeys(SIZING_FEATURES, 0.0), **weights}, bias))


def rules_only() -> RankingModel:
    return RankingModel(dict.fromkeys(FEATURES, 0.0), 0.0, 0.0, 1.01)


def answered(s) -> list[str]:
    return [f.service for f in (*s.primary, *s.secondary)]


def test_expected_f1_of_sure_answers() -> None:
    assert expected_f1([1.0], [0.0, 0.0]) == pytest.approx(1.0)
    assert expected_f1([1.0], [1.0]) == pytest.approx(2 / 3)  # one of two true services named
    assert expected_f1([1.0, 0.0], []) == pytest.approx(2 / 3)  # one wrong service beside the right one
    assert expected_f1([], [0.5]) == 0.0


def test_expected_f1_weighs_every_outcome() -> None:
    # one service named at 0.5, nothing else can change: right half the time (F1 1), else F1 0
    assert expected_f1([0.5], [0.0]) == pytest.approx(0.5)
    # named at 1, the other changes half the time: F1 1 or 2/3
    assert expected_f1([1.0], [0.5]) == pytest.approx(0.5 * 1.0 + 0.5 * 2 / 3)


def test_a_likely_second_service_of_a_small_system_joins_the_answer() -> None:
    # two services: the named one surely changes; the other changes more often than not
    assert grow(["orders"], {"orders": 0.95, "billing": 0.6}) == ["billing"]


def test_an_unlikely_service_does_not_join() -> None:
    assert grow(["orders"], {"orders": 0.95, "billing": 0.1, "mail": 0.05}) == []


def test_the_most_likely_join_first_and_no_more_than_the_cap() -> None:
    p = {"orders": 0.9, **{f"s{i}": 0.8 - i * 0.01 for i in range(10)}}
    got = grow(["orders"], p)
    assert got == [f"s{i}" for i in range(MAX_ADDED)]


def test_an_answer_the_rules_left_empty_is_never_grown() -> None:
    # no probability makes a service of a task that matched nothing part of the answer
    assert grow([], {"orders": 0.99, "billing": 0.99}) == []


def test_a_task_matching_nothing_stays_empty_however_likely_the_size_finds_everything() -> None:
    s = FindChangeSurface(seeded_store(), ranking=sized(30.0))("Quantum entanglement telemetry", record=False)
    assert s.primary == s.secondary == () and s.note


def test_the_size_only_adds_to_the_rules_answer_and_states_its_probability() -> None:
    task = "Add Pix as a payment method in checkout"
    rules = FindChangeSurface(seeded_store(), ranking=rules_only())(task, record=False)
    unlikely = FindChangeSurface(seeded_store(), ranking=sized(-30.0))(task, record=False)
    likely = FindChangeSurface(seeded_store(), ranking=sized(2.0))(task, record=False)
    assert answered(unlikely) == answered(rules)
    assert set(answered(rules)) < set(answered(likely))
    added = [f for f in likely.secondary if f.service not in answered(rules)]
    assert 0 < len(added) <= MAX_ADDED
    for f in added:
        assert f.confidence == pytest.approx(0.88, abs=0.01)  # sigmoid(2)
        assert "answer's size" in f.reason
        assert f.service not in [n.service for n in likely.no_change_hint]
    # what the rules stated is stated as before
    before = {f.service: (f.confidence, f.reason) for f in (*rules.primary, *rules.secondary)}
    after = {f.service: (f.confidence, f.reason) for f in (*likely.primary, *likely.secondary)}
    assert all(after[k] == v for k, v in before.items())


def test_the_code_ranking_decides_which_unmatched_service_joins() -> None:
    # only a service whose code ranks first for the task's words is likely
    task = "Add Pix as a payment method in checkout"
    rules = FindChangeSurface(seeded_store(), ranking=rules_only())(task, record=False)
    got = FindChangeSurface(seeded_store(), ranking=sized(-30.0, code_top=60.0))(task, record=False)
    assert set(answered(rules)) <= set(answered(got))
    assert len(answered(got)) - len(answered(rules)) <= 1


def test_a_model_without_a_size_is_the_rules_alone_and_a_malformed_size_is_a_clear_error() -> None:
    base = {"weights": dict.fromkeys(FEATURES, 0.0), "bias": 0.0, "drop": 0.1, "add": 0.5}
    assert model_from(base).sizing is None
    good = {"weights": dict.fromkeys(SIZING_FEATURES, 0.5), "bias": -1.0}
    assert model_from({**base, "sizing": good}).sizing == SizingModel(dict.fromkeys(SIZING_FEATURES, 0.5), -1.0)
    assert sizing_from(None) is None
    for bad in ({"weights": {"primary": 1.0}, "bias": 0.0}, {"weights": dict.fromkeys(SIZING_FEATURES, 0.0)}, "x"):
        with pytest.raises(ValueError, match="sizing"):
            model_from({**base, "sizing": bad})


def test_growing_picks_the_size_of_highest_expected_f1() -> None:
    p = {"a": 0.9, "b": 0.55, "c": 0.4, "d": 0.3, "e": 0.2, "f": 0.1, "g": 0.05}
    others = ["b", "c", "d", "e", "f", "g"]
    scores = [expected_f1([0.9] + [p[n] for n in others[:k]], [p[n] for n in others[k:]])
              for k in range(MAX_ADDED + 1)]
    assert grow(["a"], p) == others[:scores.index(max(scores))]


def test_only_evidence_lets_a_service_join() -> None:
    # a likely service with no evidence of its own (no word, no link, no code) never joins:
    # the system's size alone is no reason; the others stay possible misses
    p = {"orders": 0.95, "billing": 0.6, "mail": 0.6}
    assert grow(["orders"], p, eligible=frozenset({"mail"})) == ["mail"]
    assert grow(["orders"], p, eligible=frozenset()) == []


@pytest.mark.parametrize("rule", ["weak guess, most", "weak guess, few", "code words only", "work, the hub",
                                  "cross-cutting", ""])
def test_a_guess_or_a_selection_is_never_grown(rule: str) -> None:
    assert rule not in GROWS
    assert not grows(Classified("orders", "primary", "why", 0.7, (), rule), None)


def _candidate(naming: set[str], tech: set[str]) -> Candidate:
    return Candidate(Service("s-orders", "orders", "shop", "orders", "java"), naming_terms=naming, tech_terms=tech)


def test_a_finding_grows_only_when_a_task_word_names_one_of_its_facts_beyond_a_technology() -> None:
    f = Classified("orders", "primary", "why", 0.7, (), "words alone, most")
    assert grows(f, _candidate({"order"}, set()))
    assert not grows(f, _candidate({"java"}, {"java"}))  # a language word selected the stack
    assert not grows(f, _candidate(set(), set()))  # a synonym names nothing
    assert not grows(f, None)
    assert grows(Classified("orders", "primary", "the caller named it", 0.9, (), "hint"), None)
