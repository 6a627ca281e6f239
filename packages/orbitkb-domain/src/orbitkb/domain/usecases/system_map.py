"""DrawSystemMap: the whole system as one drawable graph — services grouped by repository,
resources and external vendors as their own kinds of node, HTTP / gRPC / message edges with their
evidence, cycle members and fan-in/out hot spots marked, freshness per repository.

Business rules:
- Nodes and edges come from stored facts only (the same ``SystemGraph`` the smells are read from),
  so a cycle or a hot spot on the map is exactly a finding of ``find_architecture_smells``.
- Several call sites between the same two services over the same protocol are one edge carrying
  every call's evidence (its ``count`` says how many).
- A service is linked to a resource of its own repository only when the resource's engine is the
  engine of an entity it persists or the provider of a channel it uses — and exactly one resource
  of that engine exists there; the edge says so in its reason (never a guess between two).
- Calls to an address the analyzer could not resolve are gaps, not nodes: they are counted.
- With a load-once ``ModelReader`` the drawing is computed once per snapshot (kept on the
  SystemModel) and only freshness — git's current commits, which move without any index — is asked
  on every call; the same freshness gives back the very same ``SystemMap`` object, so a caller can
  keep what it made of it (the web app keeps the JSON it sent).
"""

from __future__ import annotations

from collections import defaultdict

from attrs import evolve, frozen

from orbitkb.domain.architecture.graph import Edge, SystemGraph
from orbitkb.domain.architecture.smells import detect_all
from orbitkb.domain.errors import EmptyKnowledgeBase
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.model import Evidence, Freshness, Message, PersistenceEntity, Resource
from orbitkb.domain.ports import FactsReader, GitReader, ModelReader
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.usecases._common import facts_of

MAX_EVIDENCE = 5  # per edge on the map; its count says how many call sites there are


@frozen
class MapRepository:
    name: str
    services: int
    freshness: Freshness


@frozen
class MapNode:
    id: str  # "service:<label>", "resource:<repository>/<name>", "vendor:<target>"
    kind: str  # service | resource | vendor
    label: str
    repository: str | None
    stack: str | None = None
    framework: str | None = None
    detail: str | None = None  # a resource's engine, a service's short description
    stale: bool | None = None
    cycle: bool = False
    fan_in: int = 0
    fan_out: int = 0
    hot: tuple[str, ...] = ()  # fan_in / fan_out when the smells report it


@frozen
class MapEdge:
    id: str
    source: str
    target: str
    protocol: str  # HTTP | GRPC | MESSAGE | USES
    channel: str | None
    reason: str | None
    count: int
    evidence: tuple[Evidence, ...]


@frozen
class SystemMap:
    repositories: tuple[MapRepository, ...]
    nodes: tuple[MapNode, ...]
    edges: tuple[MapEdge, ...]
    stacks: tuple[str, ...]
    protocols: tuple[str, ...]
    unresolved_calls: int


def _protocol(e: Edge) -> str:
    return "MESSAGE" if e.type == "MESSAGE_LINK" else e.type


@frozen
class DrawSystemMap:
    store: FactsReader
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self) -> SystemMap:
        facts = facts_of(self.store, self.models)
        probe = FreshnessProbe(self.git)
        fresh = {r.name: probe.of(r) for r in facts.list_repositories()}
        if not isinstance(facts, SystemModel):
            return _with_freshness(_draw(facts), fresh)
        return facts.derived("system_map", lambda: _Drawing(_draw(facts))).at(fresh)


class _Drawing:
    """One snapshot's drawing and the map last answered from it (one: heads move, old ones die)."""

    def __init__(self, drawing: SystemMap) -> None:
        self.drawing = drawing
        self._last: tuple[object, SystemMap] | None = None

    def at(self, fresh: dict[str, Freshness]) -> SystemMap:
        key = sorted(fresh.items())
        last = self._last  # read once: another thread may replace it, never half of it
        if last is not None and last[0] == key:
            return last[1]
        answer = _with_freshness(self.drawing, fresh)
        self._last = (key, answer)
        return answer


def _with_freshness(drawing: SystemMap, fresh: dict[str, Freshness]) -> SystemMap:
    """The drawing (made without git) with each repository's freshness and its nodes' ``stale``."""

    def stale(repository: str | None) -> bool | None:
        return fresh[repository].stale if repository in fresh else None

    repositories = tuple(evolve(r, freshness=fresh.get(r.name, r.freshness)) for r in drawing.repositories)
    nodes = tuple(n if n.kind == "vendor" or n.stale == stale(n.repository) else evolve(n, stale=stale(n.repository))
                  for n in drawing.nodes)
    return evolve(drawing, repositories=repositories, nodes=nodes)


def _draw(facts: FactsReader | SystemModel) -> SystemMap:
    """The map of the facts, every freshness unknown (``_with_freshness`` fills it in)."""
    services = facts.list_services()
    if not services:
        raise EmptyKnowledgeBase("the knowledge base is empty", hint="orbitkb index PATH")
    entities, messages = facts.list_entities(), facts.list_messages()
    graph = facts.graph if isinstance(facts, SystemModel) else SystemGraph(services, facts.list_calls(), messages)
    repos = facts.list_repositories()
    findings = detect_all(graph, entities, messages)
    cycle = {n for f in findings if f.kind == "cycle" for n in f.services}
    hot: dict[str, list[str]] = defaultdict(list)
    for f in findings:
        if f.kind in ("fan_in", "fan_out"):
            hot[f.services[0]].append(f.kind)
    fan_in: dict[str, set[str]] = defaultdict(set)
    fan_out: dict[str, set[str]] = defaultdict(set)
    for src, targets in graph.sync_adjacency().items():
        for t in targets - {src}:
            fan_in[t].add(src)
            fan_out[src].add(t)
    nodes = [MapNode(f"service:{label}", "service", label, s.repository, s.stack, s.framework, s.short_desc,
                     None, label in cycle, len(fan_in[label]), len(fan_out[label]), tuple(hot.get(label, ())))
             for label, s in sorted(graph.by_label.items())]
    edges = _graph_edges(graph.edges)
    vendors = sorted({e.target for e in graph.edges if not e.internal})
    nodes.extend(MapNode(f"vendor:{v}", "vendor", v, None) for v in vendors)
    resources = facts.list_resources()
    nodes.extend(MapNode(_resource_id(r), "resource", r.name, r.repository, detail=r.engine)
                 for r in sorted(resources, key=lambda r: (r.repository, r.name)))
    edges.extend(_resource_edges(graph, resources, entities, messages))
    counts: dict[str, int] = defaultdict(int)
    for s in services:
        counts[s.repository] += 1
    unknown = Freshness(None, None, None, None)
    return SystemMap(
        tuple(MapRepository(r.name, counts[r.name], unknown) for r in sorted(repos, key=lambda r: r.name)),
        tuple(nodes), tuple(edges), tuple(sorted({s.stack for s in services})),
        tuple(sorted({e.protocol for e in edges})), graph.unresolved)


def _graph_edges(graph_edges: list[Edge]) -> list[MapEdge]:
    grouped: dict[tuple[str, str, str, str], list[Edge]] = defaultdict(list)
    for e in graph_edges:
        target = f"service:{e.target}" if e.internal else f"vendor:{e.target}"
        grouped[(f"service:{e.source}", target, _protocol(e), e.channel or "")].append(e)
    out = []
    for (src, dst, protocol, channel), group in sorted(grouped.items()):
        reasons = [e.reason for e in group if e.reason]
        evidence = tuple(ev for e in group for ev in e.evidence)[:MAX_EVIDENCE]
        out.append(MapEdge(f"{protocol}:{src}->{dst}:{channel}", src, dst, protocol, channel or None,
                           reasons[0] if reasons else None, len(group), evidence))
    return out


def _resource_id(r: Resource) -> str:
    return f"resource:{r.repository}/{r.name}"


def _resource_edges(graph: SystemGraph, resources: list[Resource], entities: list[PersistenceEntity],
                    messages: list[Message]) -> list[MapEdge]:
    by_engine: dict[tuple[str, str], list[Resource]] = defaultdict(list)
    for r in resources:
        by_engine[(r.repository, r.engine.lower())].append(r)
    uses: dict[tuple[str, str], tuple[str, list[Evidence]]] = {}
    facts: list[tuple[str, str, str, tuple[Evidence, ...]]] = [
        (e.service_id, e.engine, f"persists {e.name}", e.evidence) for e in entities]
    facts.extend((m.service_id, m.provider, f"{m.direction.value} {m.channel}", m.evidence) for m in messages)
    for service_id, engine, what, evidence in facts:
        svc = graph.services.get(service_id)
        found = by_engine.get((svc.repository, engine.lower()), []) if svc else []
        if svc is None or len(found) != 1:
            continue
        key = (f"service:{graph.label[service_id]}", _resource_id(found[0]))
        reason, ev = uses.setdefault(key, (f"{what} ({engine}, the only {engine} of the repository)", []))
        ev.extend(evidence)
    return [MapEdge(f"USES:{src}->{dst}:", src, dst, "USES", None, reason, len(ev), tuple(ev[:MAX_EVIDENCE]))
            for (src, dst), (reason, ev) in sorted(uses.items())]
