"""Structural findings in risk language, never verdicts. Each detector is a function of the graph
(and entities) returning findings; thresholds are starting constants, not trained values."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from attrs import frozen

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.model import Direction, Message, PersistenceEntity
from orbitkb.domain.runs import ArchitectureFinding


@frozen
class SmellSettings:
    fan_threshold: int = 4  # a count >= threshold is reported
    max_sync_depth: int = 3  # a synchronous chain of more hops than this is reported


def strongly_connected(adj: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative (no recursion limit on big graphs); components sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(adj):
        if root in index:
            continue
        work = [(root, iter(sorted(adj.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(adj.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
    return sorted(out)


def cycles(graph: SystemGraph, _: Sequence[PersistenceEntity], s: SmellSettings) -> list[ArchitectureFinding]:
    adj = graph.sync_adjacency()
    found = []
    for comp in strongly_connected(adj):
        if len(comp) > 1:  # named once: the members in their order are no path of calls (a -> b need not exist)
            found.append(ArchitectureFinding(
                "cycle", "warning", tuple(comp),
                f"{', '.join(comp)} call each other in a circle via synchronous calls: a change or "
                "outage in one may ripple back to itself, and they may not be deployable independently.",
                {"size": len(comp)}))
        elif comp[0] in adj.get(comp[0], set()):
            found.append(ArchitectureFinding(
                "cycle", "info", (comp[0],),
                f"{comp[0]} calls its own API over the network — possibly intentional, worth checking.",
                {"size": 1, "self_loop": True}))
    return found


def fan(graph: SystemGraph, _: Sequence[PersistenceEntity], s: SmellSettings) -> list[ArchitectureFinding]:
    callers: dict[str, set[str]] = defaultdict(set)
    callees: dict[str, set[str]] = defaultdict(set)
    for src, targets in graph.sync_adjacency().items():
        for t in targets:
            if t != src:
                callers[t].add(src)
                callees[src].add(t)
    out = []
    for name in sorted(callers):
        n = len(callers[name])
        if n >= s.fan_threshold:
            out.append(ArchitectureFinding(
                "fan_in", "info", (name,),
                f"{n} other internal services call {name} directly — a potential bottleneck or single point "
                "of coupling.", {"count": n, "callers": sorted(callers[name])}))
    gateways = {graph.label[sid] for sid, svc in graph.services.items() if _is_gateway(svc.name, svc.framework)}
    for name in sorted(callees):
        n = len(callees[name])
        if n >= s.fan_threshold and name not in gateways:  # routing to many services is a gateway's job
            out.append(ArchitectureFinding(
                "fan_out", "info", (name,),
                f"{name} calls {n} other internal services directly — it may know too much about the system "
                "and change whenever they do.", {"count": n, "callees": sorted(callees[name])}))
    return out


def _is_gateway(name: str, framework: str | None) -> bool:
    return "gateway" in (framework or "") or framework in ("nginx", "envoy", "kong", "traefik") \
        or any(w in name.lower() for w in ("gateway", "proxy", "edge", "ingress"))


def shared_database(_: SystemGraph, entities: Sequence[PersistenceEntity], s: SmellSettings,
                    names: dict[str, str] | None = None) -> list[ArchitectureFinding]:
    groups: dict[tuple[str, str], set[str]] = defaultdict(set)
    for e in entities:
        if e.engine and e.engine != "unknown":
            groups[(e.name.lower(), e.engine)].add((names or {}).get(e.service_id, e.service_id))
    out = []
    for (entity, engine), services in sorted(groups.items()):
        if len(services) > 1:
            svcs = sorted(services)
            out.append(ArchitectureFinding(
                "shared_database", "warning", tuple(svcs),
                f"{', '.join(svcs)} all persist an entity named '{entity}' on {engine} — likely sharing a "
                "database, which couples their schemas.", {"entity": entity, "engine": engine}))
    return out


def duplicate_external(graph: SystemGraph, _: Sequence[PersistenceEntity], s: SmellSettings) -> list[ArchitectureFinding]:
    users: dict[str, set[str]] = defaultdict(set)
    for e in graph.edges:
        if not e.internal and e.target_kind == "external":
            users[e.target].add(e.source)
    return [ArchitectureFinding(
        "duplicate_external_integration", "info", tuple(sorted(svcs)),
        f"{', '.join(sorted(svcs))} each integrate with '{vendor}' independently — worth checking whether "
        "that's intentional or should be consolidated behind one service.", {"vendor": vendor})
        for vendor, svcs in sorted(users.items()) if len(svcs) > 1]


def deep_sync_chain(graph: SystemGraph, _: Sequence[PersistenceEntity], s: SmellSettings) -> list[ArchitectureFinding]:
    """Why: every synchronous hop multiplies latency and failure probability; a request that goes
    through a long chain of blocking calls is where timeouts and cascading outages come from.
    Linear time: longest paths over the condensation (cycles collapsed), one chain per entry point."""
    adj = graph.sync_adjacency()
    comp_of: dict[str, int] = {}
    comps = strongly_connected(adj)
    for i, comp in enumerate(comps):
        for n in comp:
            comp_of[n] = i
    dag: dict[int, set[int]] = {i: set() for i in range(len(comps))}
    for src, targets in adj.items():
        for t in targets:
            if comp_of[src] != comp_of[t]:
                dag[comp_of[src]].add(comp_of[t])
    best: dict[int, tuple[int, int | None]] = {}

    def longest(c: int) -> int:
        if c not in best:
            best[c] = (0, None)
            options = sorted(((longest(n) + 1, n) for n in dag[c]), key=lambda x: (-x[0], comps[x[1]]))
            best[c] = options[0] if options else (0, None)
        return best[c][0]

    has_pred = {n for targets in dag.values() for n in targets}
    out = []
    for c in sorted(dag, key=lambda i: comps[i]):
        if c in has_pred or longest(c) <= s.max_sync_depth:
            continue
        chain, cur = [comps[c][0]], c
        while best[cur][1] is not None:
            cur = best[cur][1]  # type: ignore[assignment]
            chain.append(comps[cur][0])
        out.append(ArchitectureFinding(
            "deep_sync_chain", "info", tuple(chain),
            f"a synchronous call chain of {len(chain) - 1} hops ({' -> '.join(chain)}): latency and failure "
            "probability add up along it; consider async messaging or caching at one hop.",
            {"count": len(chain) - 1, "max_depth": s.max_sync_depth}))
    return out


def self_consumed_channel(_: SystemGraph, __: Sequence[PersistenceEntity], s: SmellSettings,
                          messages: Sequence[Message] = (), names: dict[str, str] | None = None) -> list[ArchitectureFinding]:
    """Why: a service that consumes what it publishes is often a hidden internal loop (or a test
    shortcut that shipped); it also hides the real owner of the event from everyone else."""
    pubs = {(m.service_id, m.channel) for m in messages if m.direction == Direction.PUBLISHES}
    subs = {(m.service_id, m.channel) for m in messages if m.direction == Direction.CONSUMES}
    return [ArchitectureFinding(
        "self_consumed_channel", "info", ((names or {}).get(sid, sid),),
        f"{(names or {}).get(sid, sid)} both publishes and consumes '{channel}' — an internal loop through "
        "the broker; check it is intentional.", {"channel": channel})
        for sid, channel in sorted(pubs & subs)]


Detector = Callable[..., list[ArchitectureFinding]]
GRAPH_DETECTORS: tuple[Detector, ...] = (cycles, fan, duplicate_external, deep_sync_chain)
#: every kind of finding the detectors report (what ``smells --kind`` and the MCP tool accept)
SMELL_KINDS = ("cycle", "fan_in", "fan_out", "shared_database", "duplicate_external_integration", "deep_sync_chain",
               "self_consumed_channel")


def detect_all(graph: SystemGraph, entities: Sequence[PersistenceEntity], messages: Sequence[Message],
               settings: SmellSettings | None = None) -> list[ArchitectureFinding]:
    s = settings or SmellSettings()
    names = graph.label
    found: list[ArchitectureFinding] = []
    for d in GRAPH_DETECTORS:
        found.extend(d(graph, entities, s))
    found.extend(shared_database(graph, entities, s, names))
    found.extend(self_consumed_channel(graph, entities, s, messages, names))
    order = {"warning": 0, "info": 1}
    return sorted(found, key=lambda f: (order.get(f.severity, 2), f.kind, f.services))
