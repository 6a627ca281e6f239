"""Offline classification of candidates into primary / secondary / no_change_hint, with reasons
built from the evidence that put each service there.

Confidence meaning: the estimated probability that the service really changes for this task
(for no_change_hint: that it does not). The mapping from evidence to confidence is checked on the
benchmark (benchmarks/change_surface.py reports calibration per confidence bucket)."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.change.candidates import ABSTAIN_FLOOR, Candidate
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.ranking import RankingModel, default_model, named, probabilities
from orbitkb.domain.model import Evidence

MAX_PRIMARY = 4
MAX_GROUP = 10
WEAK_CONFIDENCE = 0.3  # a task about a technology changes every service that uses it
MAX_SECONDARY = 6
MAX_NO_CHANGE = 6
PRIMARY_CUT = 0.6  # share of the best score a direct match needs to be primary
SECONDARY_CUT = 0.55  # below this, a word match is noise (benchmarks/change_surface.py)
#: a service only the evidence mix adds is stated at most this sure (the 0.6-0.8 bucket of the
#: tune half was right ~73% of the time, the >= 0.8 one less than promised)
ADDED_CAP = 0.7
#: from this share of the best history match, the reason says the service's commits used the words
HISTORY_REASON = 0.5


def primary_confidence(rel: float, coverage: float, named: bool = False, alone: bool = True) -> float:
    """How often such a primary really changes, measured on real history (the tune half of
    benchmarks/realhistory.py): a service the task names, alone in the primary tier, ~0.9; named
    beside others ~0.55; matched by words alone ~0.8 when alone and most words match (0.83 of 65 on
    the tune half once only services named in full count as named), ~0.45 among others, and less
    for a runner-up far below the leader."""
    if named:
        base = 0.88 if alone else 0.6
    elif alone:
        base = 0.75 if coverage >= 0.5 else 0.45
    else:
        base = 0.5 if coverage >= 0.5 else 0.25
    return round(max(0.2, base - 0.3 * max(0.0, 1.0 - rel)), 2)


@frozen
class Classified:
    service: str
    tier: str
    reason: str
    confidence: float
    evidence: tuple[Evidence, ...]


def _hit_text(c: Candidate) -> str:
    parts = []
    for h in sorted(c.hits, key=lambda h: -h.score)[:3]:
        if h.kind == "source":
            if "words of its source code" not in parts:
                parts.append("words of its source code")
            continue
        where = {"name_text": "name", "keywords": "keywords", "text": "description", "synonym": "a synonym in its name",
                 "method": "its HTTP method", "prefix": "a longer word of its name"}.get(h.field, h.field)
        if h.kind == "service" and h.field == "name_text" and c.named_in_part:
            where = "a word its name shares, not its whole name"
        parts.append(f"{h.kind} '{h.name}' ({where})")
    return "; ".join(parts)


def _named(c: Candidate) -> bool:
    """The task names this service (its name or an alias): never below secondary."""
    return named(c)


def _kept(c: Candidate, p: dict[str, float], model: RankingModel, group: set[str]) -> bool:
    """A runner-up the rules chose stays unless the evidence mix finds it unlikely; a hinted or
    named service and the users of a technology the task names always stay."""
    return (c.via == "hint" or _named(c) or bool(group and c.tech_terms & group)
            or p.get(c.service.name, 1.0) >= model.drop)


def reason_for(c: Candidate, total_terms: int) -> str:
    if c.via == "hint":
        return "named in hint_services" + (f"; also matches {_hit_text(c)}" if c.hits else "")
    if c.via == "expansion":
        rel = {"HTTP": "a synchronous HTTP dependency", "GRPC": "a gRPC dependency",
               "MESSAGE_LINK": f"a message link on '{c.channel}'"}.get(c.edge_type or "", "a dependency")
        return f"{c.hops} hop(s) from {c.reached_from} through {rel}; nothing in the task names it directly"
    if c.note and not c.hits:
        return c.note
    terms = ", ".join(sorted(c.matched_terms))
    text = f"task words [{terms}] ({len(c.matched_terms)}/{total_terms}) match {_hit_text(c)}" if c.hits else ""
    if c.history >= HISTORY_REASON:
        text += ("; " if text else "") + "its past commits were described in these words"
    if c.semantic:
        text += ("; " if text else "") + f"semantically close to the task (cosine {c.semantic:.2f})"
    return text or "matched the task"


def evidence_for(c: Candidate, lookup: EvidenceIndex) -> tuple[Evidence, ...]:
    ev = []
    for h in sorted(c.hits, key=lambda h: -h.score)[:3]:
        e = lookup.get(c.service.id, h.ref_id)
        if e is not None:
            ev.append(Evidence(e.file, e.start_line, e.end_line, e.commit, note=f"{h.kind} {h.name}"))
    return tuple(ev)


def classify(cands: dict[str, Candidate], total_terms: int, lookup: EvidenceIndex,
             n_services: int | None = None, model: RankingModel | None = None) -> list[Classified]:
    """The rules choose (primary by share of the best score, secondary by two words, a link or a
    name); the learned evidence mix (change/ranking.py) then drops runners-up it finds unlikely
    and adds matched services it finds likely."""
    m = model or default_model()
    direct = sorted((c for c in cands.values() if c.via in ("match", "hint")), key=lambda c: (-c.score, c.service.name))
    expanded = sorted((c for c in cands.values() if c.via == "expansion"), key=lambda c: (-c.score, c.service.name))
    top = direct[0].score if direct else 0.0
    out: list[Classified] = []
    primary = [c for c in direct if c.via == "hint" or (top and c.score >= PRIMARY_CUT * top)]
    weak = bool(direct) and direct[0].via != "hint" and direct[0].strength < ABSTAIN_FLOOR and not direct[0].semantic
    if weak:
        # only words common to many services matched: the best guess, said to be a guess, is the
        # most connected of them (a vague task changes a hub more often than a leaf: measured on
        # the real-history tune half, F1 of such guesses 0.28 -> 0.46; held out 0.32 -> 0.38)
        primary = [max(direct, key=lambda c: (c.degree, c.score, c.service.name))]
    group = direct[0].tech_terms if direct else set()
    limit = MAX_GROUP if group and all(c.tech_terms & group for c in primary[:MAX_PRIMARY]) else MAX_PRIMARY
    primary = primary[:limit]
    if not primary and direct:
        primary = direct[:1]
    p = probabilities([c for c in direct if c.via == "match"], total_terms,
                      n_services if n_services is not None else len(cands), m)
    if not weak:
        primary = primary[:1] + [c for c in primary[1:] if _kept(c, p, m, group)]
    chosen = {c.service.name for c in primary}
    for c in primary:
        coverage = len(c.matched_terms) / total_terms if total_terms else 0.0
        rel = c.score / top if top else 1.0
        conf = (0.9 if c.via == "hint" else WEAK_CONFIDENCE if weak
                else primary_confidence(rel, coverage, _named(c), len(primary) == 1))
        reason = reason_for(c, total_terms) + (f"; a guess: only words common to many services match, and "
                                                f"it is the most connected of them ({c.degree} links)"
                                                if weak and c.hits else "")
        out.append(Classified(c.service.name, "primary", reason, round(conf, 2), evidence_for(c, lookup)))
    # a secondary needs more than one stray word: two task words, a link to a strong candidate,
    # or its own name in the task (a lone shared word pulled in unrelated repositories)
    secondary = [c for c in direct if c.service.name not in chosen and not weak
                 and ((c.score >= SECONDARY_CUT * top and (len(c.matched_terms) > 1 or c.reached_from)) or _named(c))]
    # expansion alone never makes a service "likely to change": neighbours stay context
    # (no_change_hint, flow, contracts_at_risk) unless the task's words also point at them
    secondary = [c for c in secondary if _kept(c, p, m, group)]
    picked = {c.service.name for c in secondary}
    added = [c for c in direct if c.service.name not in chosen and c.service.name not in picked and not weak
             and p.get(c.service.name, 0.0) >= m.add]
    added_names = {c.service.name for c in added}
    secondary = sorted(secondary + added, key=lambda c: (-c.score, c.service.name))[:MAX_SECONDARY]
    for c in secondary:
        rel = c.score / top if top else 0.0
        if c.service.name in added_names:
            conf = min(p[c.service.name], ADDED_CAP)
            reason = reason_for(c, total_terms) + f"; likely by the learned evidence mix ({p[c.service.name]:.2f})"
        else:
            conf, reason = min(0.1 + 0.35 * rel, 0.45), reason_for(c, total_terms)
        out.append(Classified(c.service.name, "secondary", reason, round(conf, 2), evidence_for(c, lookup)))
        chosen.add(c.service.name)
    # weak word matches are not dropped silently: they are context, like graph neighbours
    unchosen = [c for c in direct if c.service.name not in chosen]
    rest = sorted([*unchosen, *(c for c in expanded if c.service.name not in chosen)],
                  key=lambda c: (-c.score, c.service.name))[:MAX_NO_CHANGE]
    for c in rest:
        rel = c.score / top if top else 0.0
        # a neighbour reached through the graph rarely changes (measured ~97%); a weak word match
        # is a closer call, so it says so
        conf = max(0.7, 0.95 - 0.3 * rel) if c.via == "expansion" else 0.6
        out.append(Classified(c.service.name, "no_change_hint", reason_for(c, total_terms), round(conf, 2), ()))
    return out
