"""Architecture use cases: GetRelationships (1 hop), TraceFlow (shortest paths), the smells
recomputed after every index (RecomputeArchitecture, an index hook) and read with their trend
(FindArchitectureSmells). All deterministic, from stored facts only."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from attrs import frozen
from cattrs.gen import make_dict_unstructure_fn, override

from orbitkb.domain.architecture.graph import Edge, SystemGraph
from orbitkb.domain.architecture.smells import SMELL_KINDS as SMELL_KINDS  # the MCP tool lists them from here
from orbitkb.domain.architecture.smells import SmellSettings, detect_all
from orbitkb.domain.architecture.trend import Trend, compare
from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.model import Evidence, Freshness, Repository, ServiceFacts
from orbitkb.domain.ports import GitReader, KnowledgeStore, ModelReader
from orbitkb.domain.recording import attempt, not_recorded
from orbitkb.domain.runs import ArchitectureFinding, ArchitectureRun
from orbitkb.domain.serialization import converter
from orbitkb.domain.usecases._clock import Clock, utc_now
from orbitkb.domain.usecases._common import check_page, facts_of, find_service, graph_of, page
from orbitkb.domain.usecases.indexing import HookOutcome

MAX_PATHS = 10


@frozen
class ProvenanceRef:
    """Who stated a relationship: ``deterministic`` static analysis or an ``llm``."""

    source: str


@frozen
class Relationship:
    type: str
    direction: str  # inbound | outbound
    source_service: str
    target_service: str
    channel: str | None
    reason: str | None
    confidence: float | None
    target_kind: str
    provenance: ProvenanceRef
    evidence: tuple[Evidence, ...]


@frozen
class Relationships:
    service: str
    relationships: tuple[Relationship, ...]
    freshness: Freshness


def _rel(e: Edge, direction: str) -> Relationship:
    return Relationship(e.type, direction, e.source, e.target, e.channel, e.reason, e.confidence, e.target_kind,
                        ProvenanceRef(e.provenance), e.evidence)


@frozen
class GetRelationships:
    store: KnowledgeStore
    git: GitReader | None = None
    models: ModelReader | None = None

    def __call__(self, service: str, direction: str = "both") -> Relationships:
        if direction not in ("in", "out", "both", "inbound", "outbound"):
            raise InvalidInput(f"direction must be inbound, outbound or both (in/out for short), got {direction!r}")
        facts = facts_of(self.store, self.models)
        svc, _ = find_service(facts, service)
        graph = graph_of(facts)
        node = graph.label_of(svc)
        rels: list[Relationship] = []
        if direction in ("out", "outbound", "both"):
            rels.extend(_rel(e, "outbound") for e in graph.out.get(node, ()))
        if direction in ("in", "inbound", "both"):
            rels.extend(_rel(e, "inbound") for e in graph.inc.get(node, ()))
        return Relationships(node, tuple(rels), FreshnessProbe(self.git).of(facts.get_repository(svc.repository)))


@frozen
class FlowStep:
    source: str
    target: str
    type: str
    channel: str | None
    reason: str | None
    confidence: float | None
    evidence: tuple[Evidence, ...]


# a step's ends are "from" and "to" in every answer (the reference's shape); `from` is a keyword in Python
converter.register_unstructure_hook(FlowStep, make_dict_unstructure_fn(
    FlowStep, converter, source=override(rename="from"), target=override(rename="to")))


@frozen
class Flow:
    source: str
    target: str
    reachable: bool
    hops: int | None
    path: tuple[FlowStep, ...]
    alternatives: tuple[tuple[FlowStep, ...], ...] = ()
    note: str | None = None


@frozen
class TraceFlow:
    """Shortest paths from one service to another over calls and publish->consume links. When
    several shortest paths tie, all are returned (up to 10)."""

    store: KnowledgeStore
    models: ModelReader | None = None

    def __call__(self, source: str, target: str, max_hops: int = 6) -> Flow:
        if isinstance(max_hops, bool) or not isinstance(max_hops, int) or not 1 <= max_hops <= 20:
            raise InvalidInput(f"max_hops must be between 1 and 20, got {max_hops!r}")
        facts = facts_of(self.store, self.models)
        a, _ = find_service(facts, source)
        b, _ = find_service(facts, target)
        graph = graph_of(facts)
        src, dst = graph.label_of(a), graph.label_of(b)
        if a.id == b.id:
            return Flow(src, dst, True, 0, (), note="source and target are the same service")
        paths = shortest_paths(graph, src, dst, max_hops)
        if not paths:
            return Flow(src, dst, False, None, (),
                        note=f"no path from {src} to {dst} within {max_hops} hops over calls and message "
                        "links (try the reverse direction, or a larger max_hops)")
        steps = [tuple(FlowStep(e.source, e.target, e.type, e.channel, e.reason, e.confidence, e.evidence)
                       for e in p) for p in paths]
        steps = steps[:MAX_PATHS]
        return Flow(src, dst, True, len(steps[0]), steps[0], tuple(steps[1:]))


def shortest_paths(graph: SystemGraph, source: str, target: str, max_hops: int) -> list[list[Edge]]:
    dist = {source: 0}
    preds: dict[str, list[Edge]] = {}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        if dist[node] >= max_hops:
            continue
        for e in graph.out.get(node, ()):
            if not e.internal:
                continue
            nd = dist[node] + 1
            if e.target not in dist:
                dist[e.target] = nd
                preds[e.target] = [e]
                queue.append(e.target)
            elif dist[e.target] == nd:
                preds[e.target].append(e)
    if target not in dist:
        return []
    out: list[list[Edge]] = []

    def build(node: str, suffix: list[Edge]) -> None:
        if len(out) >= MAX_PATHS * 4:
            return
        if node == source:
            out.append(list(reversed(suffix)))
            return
        for e in preds.get(node, ()):
            build(e.source, [*suffix, e])

    build(target, [])
    unique: dict[tuple[tuple[str, str, str, str], ...], list[Edge]] = {}
    for p in out:  # several call sites between the same two services are one hop of one path
        unique.setdefault(tuple((e.source, e.target, e.type, e.channel or "") for e in p), p)
    return [unique[k] for k in sorted(unique)]


@frozen
class SmellsReport:
    run_id: int | None
    findings: tuple[ArchitectureFinding, ...]
    total: int
    truncated: bool
    limit: int
    offset: int
    trend: Trend | None
    note: str | None = None


def _smells_data(report: SmellsReport) -> dict[str, object]:
    """The first run has nothing to compare with: its answer has no ``trend`` at all (not null)."""
    data: dict[str, object] = _smells_fields(report)
    if report.trend is None:
        data.pop("trend", None)
    return data


_smells_fields = make_dict_unstructure_fn(SmellsReport, converter)
converter.register_unstructure_hook(SmellsReport, _smells_data)

SEVERITIES = ("warning", "info")


@frozen
class RecomputeArchitecture:
    """Index hook: detect smells over the whole system and store them as a new run."""

    store: KnowledgeStore
    settings: SmellSettings = SmellSettings()
    clock: Clock = utc_now

    #: an index that changed no fact leaves the latest architecture run valid
    runs_when_unchanged = False

    @property
    def __name__(self) -> str:
        return "architecture"

    def findings(self) -> list[ArchitectureFinding]:
        graph = SystemGraph.load(self.store)
        return detect_all(graph, self.store.list_entities(), self.store.list_messages(), self.settings)

    def __call__(self, repo: Repository | None = None, facts: Sequence[ServiceFacts] = ()) -> HookOutcome:
        findings = self.findings()
        run_id = self.store.add_architecture_run(ArchitectureRun(None, self.clock(), tuple(findings)))
        return HookOutcome("architecture", True, f"run {run_id}: {len(findings)} findings")


@frozen
class FindArchitectureSmells:
    store: KnowledgeStore
    models: ModelReader | None = None

    def __call__(self, kind: str | None = None, severity: str | None = None, limit: int | None = None,
                 offset: int | None = None) -> SmellsReport:
        limit, offset = check_page(limit, offset)
        if kind is not None and kind not in SMELL_KINDS:
            raise InvalidInput(f"unknown kind of finding: {kind!r}", hint="one of " + ", ".join(SMELL_KINDS))
        if severity is not None and severity not in SEVERITIES:
            raise InvalidInput(f"unknown severity: {severity!r}", hint="one of " + ", ".join(SEVERITIES))
        runs = self.store.list_architecture_runs(limit=2)
        note = None
        if not runs:
            if not facts_of(self.store, self.models).list_services():
                from orbitkb.domain.errors import EmptyKnowledgeBase

                raise EmptyKnowledgeBase("the knowledge base is empty")
            recompute = RecomputeArchitecture(self.store)
            run = ArchitectureRun(None, recompute.clock(), tuple(recompute.findings()))
            _, recorded = attempt(lambda: self.store.add_architecture_run(run))
            runs = self.store.list_architecture_runs(limit=2) if recorded else [run]
            if not recorded:  # a read-only agent: detected now, not kept
                note = not_recorded("this detection", "the next index records it")
        latest = runs[0]
        findings = [f for f in latest.findings if kind in (None, f.kind) and severity in (None, f.severity)]
        chunk, p = page(findings, limit, offset)
        trend = compare(latest, runs[1]) if len(runs) > 1 else None
        return SmellsReport(latest.id, chunk, p.total, p.truncated, limit, offset, trend, note)
