"""The learned evidence mix: how likely a service the task's words reached really changes, as a
logistic model over a few features of its evidence (named, fact words, source words, coverage,
technology, graph support, system size, hub degree). The weights are data (ranking.json), fitted
on the tune half of the real-history benchmark by benchmarks/realhistory/fit.py — never by hand,
never on the held-out half."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from functools import lru_cache
from importlib import resources

from attrs import frozen

from orbitkb.domain.change.candidates import Candidate

#: The features, in the order the fitting script writes the weights.
FEATURES = ("named", "keyword", "source", "coverage", "technology", "linked", "system_size", "degree",
            "strength", "score", "top")
MAX_STRENGTH = 3.0  # beyond this, a stronger word match says nothing more
#: What a fitted model records it was fitted on (``fitted_on`` in ranking.json).
FITTED_ON = ("analysis", "tasks", "repositories", "date", "command")


#: The evidence mix's features a sizing row reuses (the system's size is a feature of its own).
MIX = tuple(f for f in FEATURES if f != "system_size")
#: The features of one service, in the order the fitting script writes the weights.
SIZING_FEATURES = ("primary", "secondary", "stated", "matched", *(f"mix_{f}" for f in MIX), "system_size",
                   "inverse_size", "neighbour", "far", "degree", "named_task", "code", "code_top")


@frozen
class SizingModel:
    """How likely each service of the system is to change, given what the answer says of it
    (change/sizing.py): a logistic model over SIZING_FEATURES, fitted like the mix."""

    weights: Mapping[str, float]
    bias: float

    def probability(self, row: Mapping[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in row.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def sizing_from(data: object) -> SizingModel | None:
    """The sizing model from its JSON form (``sizing`` of ranking.json); None when absent (the answer
    is then the rules' alone); a missing or unknown feature is a clear error."""
    if data is None:
        return None
    weights = data.get("weights") if isinstance(data, dict) else None
    if not isinstance(weights, dict) or set(weights) != set(SIZING_FEATURES):
        raise ValueError(f"ranking model's sizing needs a weight for each of {', '.join(SIZING_FEATURES)}")
    bias = data.get("bias") if isinstance(data, dict) else None
    if not isinstance(bias, (int, float)):
        raise ValueError("ranking model's sizing needs a numeric bias")
    return SizingModel({k: float(v) for k, v in weights.items()}, float(bias))


@frozen
class RankingModel:
    weights: Mapping[str, float]
    bias: float
    #: a runner-up the rules chose leaves the answer below this probability
    drop: float
    #: a matched service the rules left out joins the answer (secondary) from this probability up
    add: float
    #: how many more services the answer names (change/sizing.py); None: the rules' answer alone
    sizing: SizingModel | None = None

    def probability(self, features: Mapping[str, float]) -> float:
        z = self.bias + sum(self.weights.get(k, 0.0) * v for k, v in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def model_from(data: Mapping[str, object]) -> RankingModel:
    """A model from its JSON form; a missing or unknown feature is a clear error."""
    weights = data.get("weights")
    if not isinstance(weights, dict) or set(weights) != set(FEATURES):
        raise ValueError(f"ranking model needs a weight for each of {', '.join(FEATURES)}")
    if not all(isinstance(data.get(k), (int, float)) for k in ("bias", "drop", "add")):
        raise ValueError("ranking model needs numeric bias, drop and add")
    return RankingModel({k: float(v) for k, v in weights.items()}, float(str(data["bias"])),
                        float(str(data["drop"])), float(str(data["add"])), sizing_from(data.get("sizing")))


def fitted_on(data: Mapping[str, object]) -> dict[str, object]:
    """What a fitted model records it was fitted on (FITTED_ON): the analysis version of the indexes
    (the CodeAnalyzer port's ``version``: a fit is only as good as the facts it saw), how many tune
    tasks and repositories, the date, the command that refits it. Missing is a clear error."""
    got = data.get("fitted_on")
    if not isinstance(got, dict) or not set(FITTED_ON) <= set(got):
        raise ValueError(f"ranking model must record what it was fitted on: {', '.join(FITTED_ON)} "
                         f"(benchmarks/realhistory/fit.py --write records them)")
    if not isinstance(got["analysis"], str) or not got["analysis"]:
        raise ValueError("ranking model's fitted_on.analysis must name the analysis version")
    return dict(got)


@lru_cache(maxsize=1)
def packaged() -> dict[str, object]:
    """The packaged model file (ranking.json), as written by the fitting script."""
    text = resources.files("orbitkb.domain.change").joinpath("ranking.json").read_text("utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("ranking model file must hold a JSON object")
    return data


@lru_cache(maxsize=1)
def default_model() -> RankingModel:
    return model_from(packaged())


def named(c: Candidate) -> bool:
    """The task names this service (its name, an alias, or loosely) in full, not by one word its
    name shares with others (change/fullnames.py)."""
    return not c.named_in_part and any(h.kind == "service" and h.field == "name_text" for h in c.hits)


def features(direct: Iterable[Candidate], total_terms: int, n_services: int) -> dict[str, dict[str, float]]:
    """Per directly matched candidate (by service name), its features, relative to the others
    where a raw figure means nothing across systems (keyword evidence, combined score)."""
    cands = list(direct)
    kmax = max((c.keyword for c in cands), default=0.0) or 1.0
    smax = max((c.score for c in cands), default=0.0) or 1.0
    size = math.log(max(n_services, 1))
    out = {}
    for c in cands:
        out[c.service.name] = {
            "named": float(named(c)),
            "keyword": c.keyword / kmax,
            "source": c.source,
            "coverage": len(c.matched_terms) / total_terms if total_terms else 0.0,
            "technology": float(bool(c.tech_terms)),
            "linked": float(bool(c.reached_from)),
            "system_size": size,
            "degree": math.log1p(c.degree),
            "strength": min(c.strength, MAX_STRENGTH),
            "score": c.score / smax,
            "top": float(c.score >= smax),
        }
    return out


def probabilities(direct: Iterable[Candidate], total_terms: int, n_services: int,
                  model: RankingModel | None = None) -> dict[str, float]:
    m = model or default_model()
    return {name: m.probability(f) for name, f in features(direct, total_terms, n_services).items()}
