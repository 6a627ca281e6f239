"""The learned evidence mix (change/ranking.py) and the rules around it: runners-up it finds
unlikely leave the answer, matched services it finds likely join it, a vague task's guess is the
most connected service, and the model file is checked when it is read."""

from __future__ import annotations

import pytest

from orbitkb.domain.change.candidates import Candidate, source_terms, task_terms
from orbitkb.domain.change.classify import RULE_RATES
from orbitkb.domain.change.ranking import FEATURES, RankingModel, default_model, features, model_from
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Evidence,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.runs import SearchHit
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.change_surface import FindChangeSurface

from .seed import REPO, seeded_store


def flat(bias: float, drop: float = 0.0, add: float = 1.01) -> RankingModel:
    """Every candidate equally likely: sigmoid(bias)."""
    return RankingModel(dict.fromkeys(FEATURES, 0.0), bias, drop, add)


def names(items) -> list[str]:
    return [i.service for i in items]


def test_the_packaged_model_has_a_weight_for_every_feature_and_sane_cuts() -> None:
    m = default_model()
    assert set(m.weights) == set(FEATURES)
    assert 0.0 <= m.drop < m.add <= 1.01


@pytest.mark.parametrize("bad", [
    {"weights": {"named": 1.0}, "bias": 0, "drop": 0.1, "add": 0.5},
    {"weights": dict.fromkeys(FEATURES, 0.0), "bias": "high", "drop": 0.1, "add": 0.5},
    {"weights": dict.fromkeys(FEATURES, 0.0), "bias": 0, "add": 0.5},
])
def test_a_malformed_model_is_a_clear_error(bad: dict) -> None:
    with pytest.raises(ValueError, match="ranking model"):
        model_from(bad)


def test_features_are_relative_to_the_other_candidates() -> None:
    named = Candidate(Service(service_id(REPO, "payments"), "payments", REPO, "payments", "python"), score=2.0,
                      keyword=4.0, source=1.0, matched_terms={"payments", "card"}, degree=3, strength=5.0)
    named.hits.append(SearchHit("service", "payments", "payments", 1.0, "name_text", None, named.service.id))
    stray = Candidate(Service(service_id(REPO, "ledger"), "ledger", REPO, "ledger", "python"), score=0.5,
                      keyword=1.0, source=0.2, matched_terms={"card"})
    f = features([named, stray], total_terms=4, n_services=7)
    assert f["payments"]["named"] == 1.0 and f["ledger"]["named"] == 0.0
    assert f["payments"]["keyword"] == 1.0 and f["ledger"]["keyword"] == 0.25
    assert f["payments"]["top"] == 1.0 and f["ledger"]["top"] == 0.0
    assert f["payments"]["coverage"] == 0.5 and f["payments"]["strength"] == 3.0  # capped
    assert default_model().probability(f["payments"]) > default_model().probability(f["ledger"])


def test_a_runner_up_the_mix_finds_unlikely_leaves_the_answer() -> None:
    task = "Add Pix as a payment method in checkout"
    kept = FindChangeSurface(seeded_store(), ranking=flat(-5.0, drop=0.0))(task, record=False)
    cut = FindChangeSurface(seeded_store(), ranking=flat(-5.0, drop=0.5))(task, record=False)
    assert len(names(kept.primary) + names(kept.secondary)) >= 2
    # checkout and payments are named by the task: they stay whatever the mix says
    assert {"checkout", "payments"} <= set(names(cut.primary) + names(cut.secondary))
    assert set(names(cut.primary) + names(cut.secondary)) <= set(names(kept.primary) + names(kept.secondary))


def test_a_runner_up_matched_by_a_fact_alone_is_dropped_but_the_best_match_never_is() -> None:
    task = "Show the order history with refunds and charges"
    kept = FindChangeSurface(seeded_store(), ranking=flat(-5.0, drop=0.0))(task, record=False)
    cut = FindChangeSurface(seeded_store(), ranking=flat(-5.0, drop=0.5))(task, record=False)
    assert names(kept.primary + kept.secondary) == ["orders", "payments"]  # payments: its refunds and charges APIs
    assert names(cut.primary + cut.secondary) == ["orders"]
    assert "payments" in names(cut.no_change_hint)  # context, not silently lost


def test_a_matched_service_the_mix_finds_likely_joins_as_a_stated_guess() -> None:
    task = "Reserve stock for the product page"
    plain = FindChangeSurface(seeded_store(), ranking=flat(-5.0))(task, record=False)
    eager = FindChangeSurface(seeded_store(), ranking=flat(5.0, add=0.5))(task, record=False)
    before = set(names(plain.primary) + names(plain.secondary))
    added = [f for f in eager.secondary if f.service not in before]
    assert added and all(f.confidence <= 0.7 and "evidence mix" in f.reason for f in added)
    assert not {f.service for f in eager.no_change_hint} & {f.service for f in added}


def test_a_vague_task_guesses_the_most_connected_service() -> None:
    def svc(name: str) -> Service:
        return Service(service_id("yard", name), name, "yard", name, "go")

    def link(a: str, b: str) -> ServiceCall:
        return ServiceCall(make_id("call", "yard", a, b), service_id("yard", a), CallKind.HTTP, b, TargetKind.INTERNAL,
                           to_service_id=service_id("yard", b), evidence=(Evidence(f"{a}/client.go", 9, 9),))

    common = ("handler", "result", "value", "config")
    # the leaves use the common words more, so a guess by score alone would name one of them
    all_facts = [ServiceFacts(svc("dispatch"), calls=(link("dispatch", "cranes"), link("dispatch", "gates")),
                              vocabulary=common),
                 *(ServiceFacts(svc(n), vocabulary=common * 3) for n in ("cranes", "gates"))]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository("yard", "/src/yard"), all_facts, [], [], [], documents_for(all_facts))
    s = FindChangeSurface(store)("handler result config")
    assert names(s.primary) == ["dispatch"] and s.secondary == ()
    # stated as often as such guesses were right on real history (all its words matched: "most")
    assert s.primary[0].confidence == RULE_RATES["weak guess, most"] and "most connected" in s.primary[0].reason


def test_the_source_ranking_asks_for_the_words_the_task_terms_drop() -> None:
    task = "Show the newest list on the page"
    assert "page" not in task_terms(task) and "list" not in task_terms(task)
    assert {"page", "list", "newest"} <= set(source_terms(task))


def test_a_contract_change_to_an_api_nobody_calls_pulls_no_caller() -> None:
    s = FindChangeSurface(seeded_store())("Make the currency field required in payments refunds requests")
    assert "payments" in names(s.primary)
    assert not any("whose contract the task changes" in f.reason for f in s.secondary)
