"""The parts of a change surface around the classified services: flow, external integrations,
unmapped internal dependencies, contracts at risk, persistence affected, unknowns, freshness and
recommended next queries — all read from the index, no LLM."""

from __future__ import annotations

from collections.abc import Sequence

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.change.classify import Classified
from orbitkb.domain.change.views import (
    ContractAtRisk,
    EntityAffected,
    FlowEdge,
    NextQuery,
    OutsideCall,
    Unknown,
)
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.integrations import is_unresolved_target
from orbitkb.domain.model import Direction, Evidence, Freshness, Service, TargetKind
from orbitkb.domain.ports import FactsReader
from orbitkb.domain.text import stem, words

MAX_ITEMS = 20


def _ev(evidence: Sequence[Evidence]) -> tuple[Evidence, ...]:
    return tuple(evidence[:3])


class SurfaceBuilder:
    def __init__(self, store: FactsReader, graph: SystemGraph, services: dict[str, Service],
                 relevant: Sequence[Classified], probe: FreshnessProbe, task: str = "") -> None:
        """``services`` and the findings are keyed by the graph's labels (``repository/name`` for a
        name several repositories use)."""
        self.store = store
        self.task_stems = {stem(w) for w in words(task)}
        self.primaries = {c.service for c in relevant if c.tier == "primary"}
        self.graph = graph
        self.services = services
        self.relevant = [c for c in relevant if c.tier in ("primary", "secondary")]
        self.names = [c.service for c in self.relevant]
        self.probe = probe

    def flow(self) -> list[FlowEdge]:
        chosen = set(self.names)
        out: list[FlowEdge] = []
        for e in self.graph.edges:
            if e.internal and e.source in chosen and e.target in chosen and e.source != e.target:
                item = FlowEdge(e.source, e.target, e.type, e.channel or None)
                if item not in out:
                    out.append(item)
        return out[:MAX_ITEMS]

    def _calls(self, kind: TargetKind) -> list[OutsideCall]:
        out = []
        for name in self.names:
            svc = self.services[name]
            for c in self.store.list_calls(from_service_id=svc.id):
                if c.target_kind == kind and c.to_service_id is None and not is_unresolved_target(c.target):
                    out.append(OutsideCall(c.target, name, c.reason or f"{c.call_kind.value} call from {name} found in code",
                                           c.confidence, _ev(c.evidence)))
        seen, uniq = set(), []
        for item in out:
            key = (item.service, item.via_service)
            if key not in seen:
                seen.add(key)
                uniq.append(item)
        return uniq[:MAX_ITEMS]

    def external_integrations(self) -> list[OutsideCall]:
        return self._calls(TargetKind.EXTERNAL)

    def unmapped_internal(self) -> list[OutsideCall]:
        return self._calls(TargetKind.INTERNAL)

    def _relevant_to_task(self, service: str, *names: str) -> bool:
        """Everything of a primary; of a secondary only what the task's words point at."""
        if service in self.primaries or not self.task_stems:
            return True
        return any({stem(w) for w in words(n)} & self.task_stems for n in names if n)

    def contracts_at_risk(self) -> list[ContractAtRisk]:
        out = []
        ids = {self.services[n].id: n for n in self.services}
        for name in self.names:
            svc = self.services[name]
            for m in self.store.list_messages(svc.id):
                if m.direction != Direction.PUBLISHES:
                    continue
                consumers = sorted({ids.get(o.service_id, "?") for o in self.store.list_messages(channel=m.channel)
                                    if o.direction == Direction.CONSUMES and o.service_id != svc.id})
                if consumers and self._relevant_to_task(name, m.channel):
                    out.append(ContractAtRisk(m.channel, "event", name, tuple(consumers),
                                              "potentially affects its consumers; requires verification",
                                              _ev(m.evidence)))
            sid = svc.id
            apis = {a.id: a for a in self.store.list_apis(svc.id)}
            callers: dict[str, set[str]] = {}
            for c in self.store.list_calls(to_service_id=svc.id):
                if c.to_api_id in apis and c.from_service_id in ids and c.from_service_id != sid:
                    callers.setdefault(c.to_api_id, set()).add(ids[c.from_service_id])
            for api_id, who in sorted(callers.items()):
                a = apis[api_id]
                if not self._relevant_to_task(name, a.path, a.handler):
                    continue
                out.append(ContractAtRisk(f"{a.method} {a.path}", a.kind.value, name, tuple(sorted(who)),
                                          "other services call this API; a change to its shape potentially breaks them",
                                          (Evidence(a.file, a.start_line, a.end_line),)))
        return out[:MAX_ITEMS]

    def persistence_affected(self) -> list[EntityAffected]:
        out = []
        for name in self.names:
            for e in self.store.list_entities(self.services[name].id):
                if not self._relevant_to_task(name, e.name, e.class_name or ""):
                    continue
                out.append(EntityAffected(name, e.name, e.kind, e.engine, _ev(e.evidence)))
        return out[:MAX_ITEMS]

    def freshness(self) -> dict[str, Freshness]:
        out = {}
        for name in self.names:
            repo = self.store.get_repository(self.services[name].repository)
            out[name] = self.probe.of(repo)
        return out

    def unknowns(self, unmapped: list[OutsideCall], freshness: dict[str, Freshness]) -> list[Unknown]:
        out = [Unknown("unknown", "looks internal but has not been indexed yet",
                       "index this repository for a fuller picture", u.service) for u in unmapped]
        for name, f in sorted(freshness.items()):
            if f.stale is True:
                out.append(Unknown("stale", "new commits since indexing: stored facts about it may be out of date",
                                   "call refresh (or orbitkb update) before trusting them", name))
            elif f.stale is None:
                out.append(Unknown("unknown_freshness",
                                   "cannot tell whether the index is current (not a git checkout, or moved)",
                                   "re-index if the code may have changed", name))
        return out

    def next_queries(self, unmapped: list[OutsideCall], contracts: list[ContractAtRisk],
                     freshness: dict[str, Freshness]) -> list[NextQuery]:
        out: list[NextQuery] = []
        for name, f in sorted(freshness.items()):
            if f.stale is True:
                out.append(NextQuery("refresh", {"repository": self.services[name].repository},
                                     f"{name} is stale — refresh before relying on its facts."))
        for c in self.relevant:
            if c.tier != "primary":
                continue
            out.append(NextQuery("describe_service", {"service": c.service},
                                 "primary: read its APIs, calls and components before changing it."))
            for ev in c.evidence:
                if ev.note and ev.note.startswith("api "):
                    method, _, path = ev.note[4:].partition(" ")
                    out.append(NextQuery("describe_api", {"service": c.service, "method": method, "path": path},
                                         "this API matched the task — inspect its contract before changing it."))
                    break
        for k in contracts:
            if k.kind == "event":
                out.append(NextQuery("describe_messages", {"service": k.producer},
                                     f"publishes '{k.contract}' consumed by {', '.join(k.consumers)}."))
        for u in unmapped[:3]:
            out.append(NextQuery("index", {"service": u.service},
                                 f"{u.service} looks internal but is not indexed — index it for a fuller picture."))
        seen, uniq = set(), []
        for q in out:
            key = (q.tool, tuple(sorted(q.arguments.items())))
            if key not in seen:
                seen.add(key)
                uniq.append(q)
        return uniq[:10]
