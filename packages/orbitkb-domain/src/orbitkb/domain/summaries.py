"""Offline descriptions built from facts only (provenance deterministic). They say what the code
shows — never pretending to be an LLM's interpretation."""

from __future__ import annotations

from attrs import evolve

from orbitkb.domain.model import Direction, Provenance, ServiceFacts
from orbitkb.domain.prose import is_prose
from orbitkb.domain.text import first_sentence


def _list(items: list[str], limit: int = 4) -> str:
    items = sorted(dict.fromkeys(items))
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


def describe_from_facts(facts: ServiceFacts) -> ServiceFacts:
    s = facts.service
    if s.desc_provenance == Provenance.LLM and s.short_desc:
        return facts
    kind = " ".join(x for x in (s.framework, s.stack) if x)
    http = [a for a in facts.apis if a.kind.value == "http"]
    grpc = [a for a in facts.apis if a.kind.value == "grpc"]
    handlers = [a for a in facts.apis if a.kind.value == "message"]
    parts = [f"{kind} service" if kind else "service"]
    exposes = []
    if http:
        exposes.append(f"{len(http)} HTTP endpoint{'s' * (len(http) != 1)}")
    if grpc:
        exposes.append(f"{len(grpc)} gRPC method{'s' * (len(grpc) != 1)}")
    if handlers:
        exposes.append(f"{len(handlers)} message handler{'s' * (len(handlers) != 1)}")
    if exposes:
        parts.append("exposing " + ", ".join(exposes))
    sentences = []
    calls = [c.target for c in facts.calls]
    if calls:
        sentences.append("Calls " + _list(calls) + ".")
    pubs = [m.channel for m in facts.messages if m.direction == Direction.PUBLISHES]
    subs = [m.channel for m in facts.messages if m.direction == Direction.CONSUMES]
    if pubs:
        sentences.append("Publishes " + _list(pubs) + ".")
    if subs:
        sentences.append("Consumes " + _list(subs) + ".")
    if facts.entities:
        ents = [f"{e.name} ({e.engine})" if e.engine != "unknown" else e.name for e in facts.entities]
        sentences.append("Persists " + _list(ents) + ".")
    fact_summary = " ".join(parts) + "."
    # README text counts only as prose about the service: never build steps, commands or config
    prose = s.readme if is_prose(s.readme) else None
    readme = first_sentence(prose) if prose else None
    short = readme if readme and is_prose(readme) else fact_summary
    long = " ".join([fact_summary, *sentences]) + " (summary built from extracted facts)"
    if prose:
        long = prose.strip() + "\n\n" + long
    return evolve(facts, service=evolve(s, short_desc=short, long_desc=long,
                                        desc_provenance=Provenance.DETERMINISTIC))
