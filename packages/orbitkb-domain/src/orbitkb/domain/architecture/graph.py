"""The system graph: services as nodes; synchronous calls (HTTP/gRPC) and message links
(publisher -> consumer of the same channel) as directed edges, each with its evidence."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Protocol

from attrs import frozen

from orbitkb.domain.catalog import qualified_names
from orbitkb.domain.integrations import is_unresolved_target
from orbitkb.domain.model import Direction, Evidence, Message, Service, ServiceCall, TargetKind


class GraphFacts(Protocol):
    """What the graph is built from: a ``FactsReader`` (a store) or a loaded ``SystemModel``. Named
    here, not imported from the ports: the ports name the SystemModel, which builds this graph."""

    def list_services(self) -> list[Service]: ...
    def list_calls(self) -> list[ServiceCall]: ...
    def list_messages(self) -> list[Message]: ...


@frozen
class Edge:
    source: str  # service label (name, or repository/name when ambiguous)
    target: str  # service label, or vendor/host for external calls
    type: str  # HTTP | GRPC | MESSAGE_LINK
    internal: bool
    reason: str | None = None
    confidence: float | None = None
    target_kind: str = "internal"
    provenance: str = "deterministic"
    channel: str | None = None
    evidence: tuple[Evidence, ...] = ()


class SystemGraph:
    """Nodes are service labels (``qualified_names``): the plain name, or ``repository/name`` when
    several repositories have a service of that name, so that same-named services never merge.
    Calls to a target the analyzer could not resolve (``(relative)``, ``${VAR}``, ``{expr}``) are
    gaps, not nodes: they are counted in ``unresolved``, never drawn as edges."""

    def __init__(self, services: Sequence[Service], calls: Sequence[ServiceCall], messages: Sequence[Message]):
        self.services = {s.id: s for s in services}
        self.label = qualified_names(services)
        self.by_label = {self.label[s.id]: s for s in services}
        self.names = sorted(self.label.values())
        self.edges: list[Edge] = []
        self.unresolved = 0
        by_id = self.label
        for c in calls:
            src = by_id.get(c.from_service_id)
            if src is None:
                continue
            internal = c.to_service_id is not None and c.to_service_id in by_id
            if not internal and is_unresolved_target(c.target):
                self.unresolved += 1
                continue
            self.edges.append(Edge(
                src, by_id[c.to_service_id] if internal else c.target,  # type: ignore[index]
                c.call_kind.value.upper(), internal, c.reason, c.confidence,
                TargetKind.INTERNAL.value if internal else c.target_kind.value, c.provenance.value,
                None, c.evidence,
            ))
        self.edges.extend(message_links(messages, by_id))
        self.edges.sort(key=lambda e: (e.source, e.target, e.type, e.channel or ""))
        self.out: dict[str, list[Edge]] = defaultdict(list)
        self.inc: dict[str, list[Edge]] = defaultdict(list)
        for e in self.edges:
            self.out[e.source].append(e)
            if e.internal:
                self.inc[e.target].append(e)

    def label_of(self, service: Service) -> str:
        return self.label.get(service.id, service.name)

    @classmethod
    def load(cls, store: GraphFacts) -> SystemGraph:
        """The graph of a store's facts; a loaded SystemModel keeps its own (``model.graph``)."""
        return cls(store.list_services(), store.list_calls(), store.list_messages())

    def sync_adjacency(self) -> dict[str, set[str]]:
        adj: dict[str, set[str]] = {n: set() for n in self.names}
        for e in self.edges:
            if e.internal and e.type != "MESSAGE_LINK":
                adj.setdefault(e.source, set()).add(e.target)
        return adj


def message_links(messages: Sequence[Message], names: dict[str, str]) -> list[Edge]:
    """MESSAGE_LINK edges: every publisher of a channel to every other consumer of it."""
    pubs: dict[str, list[Message]] = defaultdict(list)
    subs: dict[str, list[Message]] = defaultdict(list)
    for m in messages:
        (pubs if m.direction == Direction.PUBLISHES else subs)[m.channel].append(m)
    out = []
    for channel, publishers in pubs.items():
        for p in publishers:
            for c in subs.get(channel, ()):
                if c.service_id == p.service_id or p.service_id not in names or c.service_id not in names:
                    continue
                out.append(Edge(names[p.service_id], names[c.service_id], "MESSAGE_LINK", True, None, None,
                                "internal", "deterministic", channel, (*p.evidence[:1], *c.evidence[:1])))
    return sorted(set(out), key=lambda e: (e.source, e.target, e.channel or ""))
