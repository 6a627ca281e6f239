"""Contract propagation: when a task changes the shape of an API or an event (a field added,
made required, renamed...), the services on the other side of that contract must change too.
Without an LLM this is decided from the task's words (a data table) and from which API or channel
matched the task."""

from __future__ import annotations

from attrs import evolve

from orbitkb.domain.catalog import qualified_names
from orbitkb.domain.change.candidates import GENERIC, Candidate
from orbitkb.domain.change.classify import Classified
from orbitkb.domain.model import Direction
from orbitkb.domain.ports import FactsReader
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.text import stem, words

CONTRACT_WORDS = frozenset(
    stem(w) for w in """field fields require required mandatory optional rename renamed payload schema contract
    parameter parameters param params request response body header headers attribute attributes property
    properties deprecate deprecated format type types nullable validate validation dto version versioned
    breaking signature argument arguments""".split()
)
PARTNER_CONFIDENCE = 0.4


def is_contract_change(task: str) -> bool:
    return any(stem(w) in CONTRACT_WORDS for w in words(task, keep_stopwords=True))


def propagate(task: str, findings: list[Classified], cands: dict[str, Candidate],
              store: FactsReader | SystemModel) -> list[Classified]:
    if not is_contract_change(task):
        return findings
    # repository/name when two repositories share a name (a SystemModel keeps them)
    names = store.labels if isinstance(store, SystemModel) else qualified_names(store.list_services())
    chosen = {f.service for f in findings if f.tier in ("primary", "secondary")}
    extra: dict[str, str] = {}
    task_stems = {stem(w) for w in words(task)}
    for f in findings:
        if f.tier != "primary":
            continue
        cand = cands.get(f.service)
        if cand is None:
            continue
        sid = cand.service.id
        apis = {a.id: a for a in store.list_apis(sid) if _names_api(f"{a.path} {a.handler}", cand.service.name, task_stems)}
        for call in store.list_calls(to_service_id=sid):
            who = names.get(call.from_service_id)
            if call.to_api_id in apis and who and who not in chosen:
                a = apis[call.to_api_id]
                extra.setdefault(who, f"calls {a.method} {a.path} of {f.service}, whose contract the task changes")
        for m in store.list_messages(sid):
            if m.direction != Direction.PUBLISHES or _overlap(m.channel, task_stems) < 1:
                continue
            for other in store.list_messages(channel=m.channel):
                who = names.get(other.service_id)
                if other.direction == Direction.CONSUMES and who and who not in chosen:
                    extra.setdefault(who, f"consumes '{m.channel}' from {f.service}, whose payload the task changes")
    if not extra:
        return findings
    out = [f for f in findings if f.service not in extra]
    out += [Classified(name, "secondary", reason, PARTNER_CONFIDENCE, ()) for name, reason in sorted(extra.items())]
    return [evolve(f) for f in out]


def _names_api(text: str, service: str, task_stems: set[str]) -> bool:
    """The task names the API: two of the words of its path and handler, or all of them when it
    has fewer — not counting the service's own name and generic verbs ("create", "get"), so
    "card charges" names POST /payments/charges (create_charge) of payments."""
    own = {stem(w) for w in words(text)} - {stem(w) for w in words(service)} - _GENERIC
    return bool(own) and len(own & task_stems) >= min(2, len(own))


_GENERIC = frozenset(stem(w) for w in GENERIC)


def _overlap(text: str, task_stems: set[str]) -> int:
    return len({stem(w) for w in words(text)} & task_stems)
