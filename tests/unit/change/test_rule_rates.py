"""Each finding of the offline change surface is stated by one rule of change/classify.py, and the
confidence it states is that rule's measured rate on real history (RULE_RATES, measured by
benchmarks/rule_rates.py): a weak guess whose words cover most of the task, a word match left
out, a secondary and a service the evidence mix adds are each said as sure as they were right."""

from __future__ import annotations

import inspect
import re

import pytest

from orbitkb.domain.change import classify as classify_module
from orbitkb.domain.change.candidates import Candidate
from orbitkb.domain.change.classify import RULE_RATES, Classified, classify, primary_confidence, primary_rule
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.ranking import RankingModel
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Service
from orbitkb.domain.runs import SearchHit

NEVER_ADD = RankingModel({}, 0.0, drop=0.0, add=2.0)  # every probability is 0.5: keeps all, adds none
ALWAYS_ADD = RankingModel({}, 0.0, drop=0.0, add=0.1)


def _cand(name: str, score: float, words: set[str], *, strength: float = 2.0, degree: int = 0,
          via: str = "match", named: bool = False) -> Candidate:
    hits = [SearchHit("service" if named else "api", name, name, score, "name_text" if named else "text")]
    return Candidate(Service(service_id("harbour", name), name, "harbour", name, "python"), score=score,
                     via=via, matched_terms=set(words), hits=hits if via == "match" else [], links=degree,
                     strength=strength)


def _run(cands: list[Candidate], total_terms: int, model: RankingModel = NEVER_ADD,
         n_services: int = 12) -> dict[str, Classified]:
    found = classify({c.service.name: c for c in cands}, total_terms, EvidenceIndex(InMemoryKnowledgeStore()),
                     n_services, model)
    return {f.service: f for f in found}


def test_every_finding_names_the_rule_that_stated_it_and_states_its_rate() -> None:
    found = _run([_cand("tides", 10.0, {"tide", "table"}), _cand("pilots", 3.0, {"tide"}),
                  _cand("moorings", 0.0, set(), via="expansion")], 3)
    assert {f.rule for f in found.values()} <= set(RULE_RATES)
    for f in found.values():
        assert f.confidence == RULE_RATES[f.rule], f


@pytest.mark.parametrize(("words", "rule"), [({"crane", "lift", "shift"}, "weak guess, most"),
                                             ({"crane"}, "weak guess, few")])
def test_a_weak_guess_is_stated_as_often_as_such_guesses_were_right(words: set[str], rule: str) -> None:
    # only words common to many services matched: the most connected service is the guess
    found = _run([_cand("cranes", 1.0, words, strength=0.1, degree=5),
                  _cand("gates", 1.2, words, strength=0.1, degree=1)], 4)
    assert [f.service for f in found.values() if f.tier == "primary"] == ["cranes"]
    assert found["cranes"].rule == rule
    assert found["cranes"].confidence == RULE_RATES[rule]


def test_a_weak_guess_covering_most_of_the_task_is_surer_than_one_covering_a_word() -> None:
    most = _run([_cand("cranes", 1.0, {"crane", "lift"}, strength=0.1)], 3)["cranes"].confidence
    few = _run([_cand("cranes", 1.0, {"crane"}, strength=0.1)], 3)["cranes"].confidence
    assert most > few
    assert most >= 0.7  # such guesses were right about three times in four, not the 0.3 once said


def test_the_only_service_of_a_system_is_stated_by_a_rule_of_its_own() -> None:
    # a system of one service: whatever matched, the answer is that service, and the other rules'
    # rates are measured only where there was a choice (one-service systems inflated them)
    lone = _run([_cand("cranes", 1.0, {"crane"}, strength=0.1)], 3, n_services=1)["cranes"]
    assert (lone.tier, lone.rule, lone.confidence) == ("primary", "only service", RULE_RATES["only service"])
    among = _run([_cand("cranes", 1.0, {"crane"}, strength=0.1)], 3, n_services=5)["cranes"]
    assert among.rule == "weak guess, few" and among.confidence < lone.confidence


def test_a_word_match_left_out_is_said_not_to_change_as_surely_as_a_graph_neighbour() -> None:
    found = _run([_cand("tides", 10.0, {"tide", "table"}), _cand("pilots", 2.0, {"tide"}),
                  _cand("moorings", 0.0, set(), via="expansion")], 2)
    assert found["pilots"].tier == found["moorings"].tier == "no_change_hint"
    assert found["pilots"].confidence >= 0.85
    assert found["moorings"].confidence >= 0.85


def test_a_secondary_is_stated_its_rule_rate_whatever_its_score() -> None:
    near = _run([_cand("tides", 10.0, {"tide", "table"}), _cand("pilots", 5.9, {"tide", "table"})], 2)
    far = _run([_cand("tides", 10.0, {"tide", "table"}), _cand("pilots", 5.6, {"tide", "table"})], 2)
    assert near["pilots"].tier == far["pilots"].tier == "secondary"
    assert near["pilots"].confidence == far["pilots"].confidence == RULE_RATES["secondary"]


def test_a_service_the_evidence_mix_adds_is_stated_no_surer_than_such_additions_were_right() -> None:
    found = _run([_cand("tides", 10.0, {"tide", "table", "chart"}), _cand("pilots", 2.0, {"tide"})], 3,
                 ALWAYS_ADD)
    assert found["pilots"].tier == "secondary" and found["pilots"].rule == "added"
    assert found["pilots"].confidence == RULE_RATES["added"] < 0.5


def test_a_runner_up_beside_the_leader_is_less_sure_than_the_leader_of_its_rule() -> None:
    leader = primary_confidence(1.0, 1.0, named=False, alone=False)
    assert leader == RULE_RATES["words beside others, most"]
    assert primary_confidence(0.7, 1.0, named=False, alone=False) < leader


def test_the_rules_of_a_primary_are_rows_of_the_table() -> None:
    rules = {primary_rule(coverage, named, alone, weak)
             for coverage in (0.2, 0.8) for named in (False, True) for alone in (False, True) for weak in (False, True)}
    assert rules <= set(RULE_RATES)
    assert primary_rule(0.8, named=True, alone=True) == "named alone"


def test_each_measured_rate_is_its_counts_smoothed() -> None:
    # the table says what it measured (right/findings) beside each rate: they must agree
    source = inspect.getsource(classify_module)
    rows = re.findall(r'^\s+"([^"]+)": [\d.]+,\s+# (\d+)/(\d+)', source, re.MULTILINE)
    assert len(rows) >= 10
    for rule, right, findings in rows:
        assert RULE_RATES[rule] == pytest.approx((int(right) + 1) / (int(findings) + 2), abs=0.005), rule


def test_every_rate_is_a_probability() -> None:
    assert all(0.0 < rate < 1.0 for rate in RULE_RATES.values())


def test_every_kind_of_guess_is_a_rule_with_a_measured_rate() -> None:
    from orbitkb.domain.change.fallback import GUESSES

    assert {"code", "hub"} <= GUESSES.keys()
    for via, guess in GUESSES.items():
        assert guess.rule in RULE_RATES, via
        assert guess.says, via
