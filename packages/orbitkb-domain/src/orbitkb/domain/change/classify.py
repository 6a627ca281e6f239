"""Offline classification of candidates into primary / secondary / no_change_hint, with reasons
built from the evidence that put each service there.

Confidence meaning: the estimated probability that the service really changes for this task
(for no_change_hint: that it does not). Each finding is stated by one rule (its ``rule``), and each
rule states the rate at which its findings were right on real history (RULE_RATES)."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.change.candidates import ABSTAIN_FLOOR, Candidate
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.fallback import GUESSES
from orbitkb.domain.change.ranking import RankingModel, default_model, named, probabilities
from orbitkb.domain.model import Evidence

MAX_PRIMARY = 4
MAX_GROUP = 10
MAX_SECONDARY = 6
MAX_NO_CHANGE = 6
PRIMARY_CUT = 0.6  # share of the best score a direct match needs to be primary
SECONDARY_CUT = 0.55  # below this, a word match is noise (benchmarks/change_surface.py)
#: from this share of the best history match, the reason says the service's commits used the words
HISTORY_REASON = 0.5


#: The confidence each rule states: how often a finding that rule put in its tier was right on the
#: real-history tune half (for no_change_hint: that the service did not change), as
#: (right + 1) / (findings + 2) so that a rule seen a few times is not stated near 0 or 1. Rows are
#: rules, never tasks. Measured together by RULE_RATES_COMMAND (right/findings in each comment); a
#: primary beside others is measured on the leaders, runners-up lose RUNNER_UP_PENALTY per unit
#: of score below the leader.
RULE_RATES: dict[str, float] = {
    "hint": 0.9,  # the caller named it (not measured: real history has no hints)
    "only service": 0.97,  # 33/33: the system has one service (the rules below: measured where there was a choice)
    "named alone": 0.9,  # 46/50: the task names it in full and nothing else is primary
    "named beside others": 0.6,  # 11/18
    "words alone, most": 0.7,  # 27/38: words alone, alone in primary, covering >= MOST_WORDS
    "words alone, few": 0.44,  # 3/7
    "words beside others, most": 0.54,  # 24/44
    "words beside others, few": 0.32,  # 9/29
    "weak guess, most": 0.71,  # 11/15: only words common to many services; the most connected
    "weak guess, few": 0.44,  # 3/7
    "secondary": 0.37,  # 12/33: two words, a link or its name (no slope with score: 0/2 near the top)
    "added": 0.25,  # 2/10: added by the learned evidence mix; at most its probability
    "no change: neighbour": 0.91,  # 139/152: reached through the graph only
    "no change: weak words": 0.89,  # 511/573: a word match the rules left out
    "code words only": 0.7,  # 6/8: no fact matched; the service whose code ranks first for the task's words
    "work, the hub": 0.9,  # 8/8: software work that no fact or telling code word matched; the most connected service
    "cross-cutting": 0.4,  # 17/43: build or deployment work naming no service: the services it builds or ships (crosscut.py)
}
RULE_RATES_COMMAND = "uv run python benchmarks/rule_rates.py --clones /work/clones --split tune"
#: a word match covering at least this share of the task's words counts as "most"
MOST_WORDS = 0.5
#: how much a runner-up loses per unit of score below the leader
RUNNER_UP_PENALTY = 0.3


def primary_rule(coverage: float, named: bool = False, alone: bool = True, weak: bool = False) -> str:
    """Which rule states a primary's confidence (a key of RULE_RATES)."""
    most = "most" if coverage >= MOST_WORDS else "few"
    if weak:
        return f"weak guess, {most}"
    if named:
        return "named alone" if alone else "named beside others"
    return f"words {'alone' if alone else 'beside others'}, {most}"


def primary_confidence(rel: float, coverage: float, named: bool = False, alone: bool = True,
                       weak: bool = False) -> float:
    """The measured rate of the primary's rule (RULE_RATES), less for a runner-up far below the
    leader (rel: its score over the leader's)."""
    base = RULE_RATES[primary_rule(coverage, named, alone, weak)]
    if weak:
        return base
    return round(max(0.2, base - RUNNER_UP_PENALTY * max(0.0, 1.0 - rel)), 2)


@frozen
class Classified:
    service: str
    tier: str
    reason: str
    confidence: float
    evidence: tuple[Evidence, ...]
    #: the rule of RULE_RATES that stated the confidence ("" when another step added it)
    rule: str = ""


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
    # a system of one service: whatever the words, that service is the answer (a rule of its own, so
    # that the other rules are measured where there was a choice)
    only = n_services == 1
    direct = sorted((c for c in cands.values() if c.via in ("match", "hint")), key=lambda c: (-c.score, c.service.name))
    expanded = sorted((c for c in cands.values() if c.via == "expansion"), key=lambda c: (-c.score, c.service.name))
    guessed = [c for c in cands.values() if c.via in GUESSES]
    if guessed:
        return _guessed(guessed, total_terms, only)
    top = direct[0].score if direct else 0.0
    out: list[Classified] = []
    primary = [c for c in direct if c.via == "hint" or (top and c.score >= PRIMARY_CUT * top)]
    weak = bool(direct) and direct[0].via != "hint" and direct[0].strength < ABSTAIN_FLOOR and not direct[0].semantic
    if weak:
        # only words common to many services matched: the best guess, said to be a guess, is the
        # most connected of them (a vague task changes a hub more often than a leaf: measured on
        # the real-history tune half, F1 of such guesses 0.28 -> 0.46; held out 0.32 -> 0.38)
        primary = [max(direct, key=lambda c: (c.links, c.score, c.service.name))]
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
        rule = ("hint" if c.via == "hint" else "only service" if only
                else primary_rule(coverage, _named(c), len(primary) == 1, weak))
        conf = (RULE_RATES[rule] if c.via == "hint" or only
                else primary_confidence(rel, coverage, _named(c), len(primary) == 1, weak))
        reason = reason_for(c, total_terms) + (f"; a guess: only words common to many services match, and "
                                                f"it is the most connected of them ({c.links} links)"
                                                if weak and c.hits else "")
        out.append(Classified(c.service.name, "primary", reason, round(conf, 2), evidence_for(c, lookup), rule))
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
        if c.service.name in added_names:
            rule = "added"
            conf = min(p[c.service.name], RULE_RATES[rule])
            reason = reason_for(c, total_terms) + f"; likely by the learned evidence mix ({p[c.service.name]:.2f})"
        else:
            rule = "secondary"
            conf, reason = RULE_RATES[rule], reason_for(c, total_terms)
        out.append(Classified(c.service.name, "secondary", reason, round(conf, 2), evidence_for(c, lookup), rule))
        chosen.add(c.service.name)
    # weak word matches are not dropped silently: they are context, like graph neighbours
    unchosen = [c for c in direct if c.service.name not in chosen]
    rest = sorted([*unchosen, *(c for c in expanded if c.service.name not in chosen)],
                  key=lambda c: (-c.score, c.service.name))[:MAX_NO_CHANGE]
    for c in rest:
        # a neighbour reached through the graph, or a word match the rules left out, rarely changes
        rule = "no change: neighbour" if c.via == "expansion" else "no change: weak words"
        out.append(Classified(c.service.name, "no_change_hint", reason_for(c, total_terms), RULE_RATES[rule], (), rule))
    return out


def _guessed(guessed: list[Candidate], total_terms: int, only: bool = False) -> list[Classified]:
    """No fact matched: the guess (change/fallback.py: from the words of the code, else the hub) is
    the primary, at its rule's measured rate, and nothing is said of the others: a guess's graph
    neighbours are not "unlikely to change" (on the real-history tune half they changed 14 times in
    29, against 13 in 152 for the neighbours of a matched service)."""
    out = []
    for c in guessed:
        rule = "only service" if only else GUESSES[c.via].rule
        out.append(Classified(c.service.name, "primary", reason_for(c, total_terms), RULE_RATES[rule], (), rule))
    return out
