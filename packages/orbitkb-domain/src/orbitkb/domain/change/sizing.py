"""The answer's size. The rules (change/classify.py and the steps after it) say which services a
task surely touches; how many MORE to name is a question of expected F1, not of another cut. Every
service of the system gets a probability that it changes — a logistic model over what is known of it
(its tier and stated confidence, the evidence mix's features when a word matched it, its link to a
match, how high its code ranks for the task's words, the system's size), fitted on the tune half of
the real history by benchmarks/realhistory/fit.py and written to ranking.json (``sizing``) — and the
answer grows, most likely first, while the expected F1 of the answer grows (under independence:
E[2·hits / (answer + true)]). A small system whose task names one service often changes a second
one; a large system's unmatched services rarely: the same rule sizes both.

The rules' findings are never dropped nor restated: the sizing only adds (secondary, stated at its
probability), and an answer that is empty stays empty (abstention is decided before)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from orbitkb.domain.change.candidates import Candidate
from orbitkb.domain.change.classify import Classified, evidence_for, reason_for
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.ranking import MIX, SizingModel, features, named

#: At most this many services join an answer by its size (the most likely first).
MAX_ADDED = 3
#: What the reason of a service the size added says (and how it is told apart).
SAYS = "likely to change with the others by the answer's size"
#: The number of true services beyond which the expected-F1 sum is cut (their probability is negligible).
MAX_TRUE = 24


def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def rows(findings: Sequence[Classified], cands: Mapping[str, Candidate], services: Sequence[str],
         total_terms: int, code: Mapping[str, float]) -> dict[str, dict[str, float]]:
    """Per service of the system (by name), its sizing features (SIZING_FEATURES). ``code``: per
    service, the bm25 of its code for the task's words relative to the best service's (0 when its
    code does not rank)."""
    n = max(len(services), 1)
    stated = {f.service: f for f in findings if f.tier in ("primary", "secondary")}
    mix = features([c for c in cands.values() if c.via == "match"], total_terms, n)
    named_task = float(any(named(c) for c in cands.values() if c.via == "match"))
    out = {}
    for name in services:
        c, f, m = cands.get(name), stated.get(name), mix.get(name, {})
        rel = code.get(name, 0.0)
        out[name] = {
            "primary": float(f is not None and f.tier == "primary"),
            "secondary": float(f is not None and f.tier == "secondary"),
            "stated": _logit(f.confidence) if f is not None else 0.0,
            "matched": float(bool(m)),
            **{f"mix_{k}": m.get(k, 0.0) for k in MIX},
            "system_size": math.log(n),
            "inverse_size": 1.0 / n,
            "neighbour": float(c is not None and c.via == "expansion" and c.hops == 1),
            "far": float(c is not None and c.via == "expansion" and c.hops >= 2),
            "degree": math.log1p(c.degree) if c is not None else 0.0,
            "named_task": named_task,
            "code": rel,
            "code_top": float(rel >= 1.0),
        }
    return out


def _distribution(ps: Sequence[float], cap: int = MAX_TRUE, start: Sequence[float] = (1.0,)) -> list[float]:
    """P(exactly j of independent events with probabilities ``ps`` happen), j = 0..cap (the last
    holds j >= cap), from the distribution ``start`` of events counted already."""
    d = [*start[:cap + 1], *[0.0] * (cap + 1 - len(start[:cap + 1]))]
    for p in ps:
        for j in range(cap, 0, -1):
            d[j] = d[j] * (1 - p) + d[j - 1] * p if j < cap else d[j] + d[j - 1] * p
        d[0] *= 1 - p
    return d


def _expected(chosen: Sequence[float], missed: Sequence[float]) -> float:
    k = len(chosen)
    if not k:
        return 0.0
    hits = _distribution(chosen, k)
    return sum(a * b * 2 * i / (k + i + j) for i, a in enumerate(hits) if i for j, b in enumerate(missed) if b)


def expected_f1(chosen: Sequence[float], rest: Sequence[float]) -> float:
    """E[2·hits / (answer + true)] of an answer of the ``chosen`` services, the others changing with
    probabilities ``rest``, all independently."""
    return _expected(chosen, _distribution(rest))


def grow(stated: Sequence[str], p: Mapping[str, float], max_added: int = MAX_ADDED,
         eligible: frozenset[str] | None = None) -> list[str]:
    """The services to add to the ``stated`` answer: the most likely others, as many (up to
    ``max_added``) as make the expected F1 highest; none when the stated answer is empty. Only
    ``eligible`` services (all when None) may join; the others still count as possible misses."""
    if not stated:
        return []
    others = sorted((n for n in p if n not in stated), key=lambda n: (-p[n], n))
    joinable = [n for n in others if eligible is None or n in eligible]
    others = joinable + [n for n in others if n not in joinable]
    base = [p.get(n, 1.0) for n in stated]
    top = min(max_added, len(joinable))
    tail = _distribution([p[n] for n in others[top:]])  # the services that never join, counted once
    best, best_k = -1.0, 0
    for k in range(top + 1):
        e = _expected(base + [p[n] for n in others[:k]], _distribution([p[n] for n in others[k:top]], start=tail))
        if e > best + 1e-12:
            best, best_k = e, k
    return others[:best_k]


#: The rules whose findings rest on the task's own words (a name, fact words, a link from one):
#: only an answer made of these is grown. A guess (weak words, code words, the hub), a build or
#: deployment cross-cut, a stack selected by a language or library word and a synonym that names
#: nothing are answers the rules make whole on purpose; growing them adds services the task gives
#: no reason for.
GROWS = frozenset({"hint", "named alone", "named beside others", "words alone, most", "words alone, few",
                   "words beside others, most", "words beside others, few", "secondary", "added"})


def grows(f: Classified, c: Candidate | None) -> bool:
    """Whether the answer's size may grow around this stated finding: its rule is one of GROWS and,
    unless the caller named it, a word of the task names one of its facts other than a technology."""
    if f.rule not in GROWS:
        return False
    return f.rule == "hint" or (c is not None and bool(c.naming_terms - c.tech_terms))


def size(findings: list[Classified], cands: Mapping[str, Candidate], services: Sequence[str], total_terms: int,
         code: Mapping[str, float], model: SizingModel, lookup: EvidenceIndex) -> list[Classified]:
    """The findings, with the services the answer's size adds as secondaries (stated at their
    probability; out of no_change_hint if they were there)."""
    stated = [f.service for f in findings if f.tier in ("primary", "secondary")]
    if not stated or len(services) < 2 or not all(
            grows(f, cands.get(f.service)) for f in findings if f.tier in ("primary", "secondary")):
        return findings
    features_of = rows(findings, cands, services, total_terms, code)
    p = {name: model.probability(r) for name, r in features_of.items()}
    # a service joins only on evidence of its own: a word of the task reaches it, it is linked to a
    # stated service, or its code holds the task's words; never on the system's size alone
    evident = frozenset(n for n in p if code.get(n, 0.0) > 0 or (
        (c := cands.get(n)) is not None and (bool(c.hits) or c.via == "expansion")))
    added = grow(list(dict.fromkeys(stated)), p, eligible=evident)
    if not added:
        return findings
    out = [f for f in findings if f.service not in added]
    for name in added:
        c = cands.get(name)
        why = [reason_for(c, total_terms)] if c is not None and (c.hits or c.via == "expansion") else []
        if code.get(name, 0.0) >= 1.0:
            why.append("its code ranks first for the task's words")
        elif code.get(name, 0.0) > 0:
            why.append(f"its code holds the task's words ({code[name]:.2f} of the best)")
        why.append(f"{SAYS} (probability {p[name]:.2f} in a "
                   f"system of {len(services)} services)")
        out.append(Classified(name, "secondary", "; ".join(why), round(p[name], 2),
                              evidence_for(c, lookup) if c is not None else ()))
    return out
