"""FindChangeSurface: the smallest set of services a task likely touches — a task inference, never
a fact — with reasons, confidence, evidence, unknowns and freshness.

Business rules:
- Uses only indexed knowledge; never re-reads source code.
- Candidates: per-term keyword evidence (rare words weigh more) + semantic neighbours when an
  embedder is installed, hinted services, then graph expansion over calls and message links.
- With an LLM backend, the LLM classifies the closed candidate list (invented names are dropped);
  offline — or when the LLM fails, which the answer says — the classification is deterministic.
- A task that matches nothing returns empty tiers with a note and unknowns, without the LLM.
- A hint that names no indexed service (or several) is an error listing the closest names.
- Services are named as the graph names them: ``repository/name`` when several repositories
  have a service of that name, so every name in the answer can be asked about again.
- Confidence is recalibrated from feedback: with >= 3 entries for a service, 30% of it comes from
  that service's confirmed rate.
- Every run is recorded and its run_id returned; run_cost_usd is null (never 0) when unknown. A
  store that refuses writes (a read-only agent) still gets the answer: run_id null and a note.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import evolve, frozen

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.change import files
from orbitkb.domain.change.candidates import Candidate, code_ranking, name_words, retrieve, task_terms
from orbitkb.domain.change.classify import Classified, classify
from orbitkb.domain.change.contracts import propagate
from orbitkb.domain.change.crosscut import add_cross_cutting, cross_cutting_words
from orbitkb.domain.change.evidence import EvidenceIndex
from orbitkb.domain.change.fallback import GUESSES
from orbitkb.domain.change.llm import candidate_facts, classify_with_llm
from orbitkb.domain.change.ranking import RankingModel, default_model, named
from orbitkb.domain.change.similar import similar_past_tasks
from orbitkb.domain.change.sizing import size
from orbitkb.domain.change.surface import SurfaceBuilder
from orbitkb.domain.change.ui import add_ui, routers
from orbitkb.domain.change.views import (
    ContractAtRisk,
    EntityAffected,
    Finding,
    FlowEdge,
    NextQuery,
    OutsideCall,
    SimilarTask,
    Unknown,
)
from orbitkb.domain.errors import EmptyKnowledgeBase, InvalidInput, LlmError
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.ids import make_id
from orbitkb.domain.model import Freshness, Service
from orbitkb.domain.ports import Embedder, GitReader, KnowledgeStore, LLMBackend, ModelReader
from orbitkb.domain.recording import attempt, joined, not_recorded
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun, Embedding, LlmUsage, SurfaceFinding
from orbitkb.domain.system_model import SystemModel
from orbitkb.domain.usecases._clock import Clock, utc_now

MAX_TASK = 4000
MAX_HINTS = 20
FEEDBACK_MIN = 3
FEEDBACK_WEIGHT = 0.3


@frozen
class ChangeSurface:
    task: str
    primary: tuple[Finding, ...]
    secondary: tuple[Finding, ...]
    no_change_hint: tuple[Finding, ...]
    flow: tuple[FlowEdge, ...]
    external_integrations: tuple[OutsideCall, ...]
    unmapped_internal_hint: tuple[OutsideCall, ...]
    contracts_at_risk: tuple[ContractAtRisk, ...]
    persistence_affected: tuple[EntityAffected, ...]
    unknowns: tuple[Unknown, ...]
    freshness: dict[str, Freshness]
    recommended_next_queries: tuple[NextQuery, ...]
    similar_past_tasks: tuple[SimilarTask, ...]
    run_id: int | None
    run_cost_usd: float | None
    retrieval: str  # keyword | hybrid
    classified_by: str  # deterministic | llm:<backend>
    note: str | None = None


@frozen
class FindChangeSurface:
    store: KnowledgeStore
    git: GitReader | None = None
    embedder: Embedder | None = None
    backend: LLMBackend | None = None
    clock: Clock = utc_now
    #: the learned evidence mix (change/ranking.json unless given)
    ranking: RankingModel | None = None
    #: the process's load-once reader; without one, each call loads the model from the store
    models: ModelReader | None = None

    def __call__(self, task: str, hint_services: tuple[str, ...] | list[str] = (), record: bool = True) -> ChangeSurface:
        if not isinstance(task, str) or not task.strip():
            raise InvalidInput("task must be a non-empty description of the change")
        if len(task) > MAX_TASK:
            raise InvalidInput(f"task is too long ({len(task)} characters, at most {MAX_TASK})")
        if not isinstance(hint_services, (list, tuple)) or len(hint_services) > MAX_HINTS:
            raise InvalidInput(f"hint_services must be a list of at most {MAX_HINTS} service names")
        # store reads per call: the snapshot (its fingerprint on a warm server), the keyword
        # queries with the task's nearest vectors in one batch, the change history with the past
        # tasks' similarities to this one; everything else comes from the SystemModel
        model = (self.models if self.models is not None else self.store).load_model()
        services = model.list_services()
        if not services:
            raise EmptyKnowledgeBase("the knowledge base is empty")
        catalog = model.catalog
        # an unknown or ambiguous hint is an error naming the closest services, never silently ignored
        hints = [catalog.lookup(str(h)) for h in hint_services]
        graph = model.graph
        retriever = HybridRetriever(self.store, self.embedder, model, embeds_anyway=record)
        cands, unmatched_terms = retrieve(task, retriever, catalog, graph, hints, self._named_files(task, model))
        history = self._history(retriever, task)
        terms = task_terms(task, name_words(services))
        probe = FreshnessProbe(self.git)
        unknowns: list[Unknown] = []
        if unmatched_terms and cands:
            unknowns.append(Unknown("unknown", "task words that match nothing indexed: " + ", ".join(unmatched_terms),
                                    "new concepts, or vocabulary the code does not use; try search with synonyms"))
        guess = next((GUESSES[c.via].says for c in cands.values() if c.via in GUESSES), None)
        if guess:
            unknowns.append(Unknown("unknown", f"no fact the index holds matches the task: the primary is a guess "
                                               f"{guess}",
                                    "name what changes (a service, an API, an entity, a channel) or pass hint_services"))
        if not cands and not cross_cutting_words(task):
            unknowns.append(Unknown("unknown", "the task matches nothing indexed",
                                    "rephrase with words the system uses, pass hint_services, "
                                    "or index the repositories that own this capability"))
            surface = ChangeSurface(task, (), (), (), (), (), (), (), (), tuple(unknowns), {}, (),
                                    tuple(self._similar(history, retriever, task)), None, None,
                                    retriever.mode, "deterministic",
                                    note="no indexed service matches this task; nothing was inferred")
            return self._record(surface, hint_services, retriever=retriever) if record else surface

        lookup = EvidenceIndex(model)
        classified_by, cost, note = "deterministic", None, None
        usage: LlmUsage | None = None
        findings: list[Classified]
        if self.backend is not None:
            try:
                summaries = {s.name: s.short_desc or "" for s in services}
                findings, usage, dropped = classify_with_llm(self.backend, task, cands,
                                                             candidate_facts(cands, summaries), lookup)
                classified_by = f"llm:{self.backend.name}"
                cost = usage.cost_usd
                if dropped:
                    note = f"{dropped} service name(s) from the LLM were not candidates and were dropped"
            except LlmError as exc:
                findings = propagate(task, classify(cands, len(terms), lookup, len(services), self.ranking), cands, model)
                note = f"the LLM backend failed ({exc}); classified deterministically instead"
        else:
            findings = offline_findings(task, cands, len(terms), lookup, model, self.ranking, bool(hints),
                                        lambda: code_ranking(retriever, task, services))
        findings = _qualify(self._recalibrate(findings, history), cands, services, graph)
        builder = SurfaceBuilder(model, graph, graph.by_label, findings, probe, task)
        unmapped = builder.unmapped_internal()
        contracts = builder.contracts_at_risk()
        freshness = builder.freshness()
        unknowns += builder.unknowns(unmapped, freshness)

        def tier(name: str) -> tuple[Finding, ...]:
            return tuple(Finding(f.service, f.reason, f.confidence, f.evidence) for f in findings if f.tier == name)

        surface = ChangeSurface(
            task=task, primary=tier("primary"), secondary=tier("secondary"), no_change_hint=tier("no_change_hint"),
            flow=tuple(builder.flow()), external_integrations=tuple(builder.external_integrations()),
            unmapped_internal_hint=tuple(unmapped), contracts_at_risk=tuple(contracts),
            persistence_affected=tuple(builder.persistence_affected()), unknowns=tuple(unknowns),
            freshness=freshness, recommended_next_queries=tuple(builder.next_queries(unmapped, contracts, freshness)),
            similar_past_tasks=tuple(self._similar(history, retriever, task)), run_id=None,
            run_cost_usd=cost, retrieval=retriever.mode, classified_by=classified_by, note=note,
        )
        if not record:
            return surface
        return self._record(surface, hint_services, findings, usage, retriever)

    def _named_files(self, task: str, model: SystemModel) -> dict[str, list[str]]:
        """Per service id, its files the task names — one store read per repository, and only when
        the task names a file at all."""
        named = files.mentioned(task)
        if not named:
            return {}
        return files.owners(named, (f for r in model.list_repositories() for f in self.store.list_indexed_files(r.name)))

    def _history(self, retriever: HybridRetriever, task: str) -> ChangeHistory:
        """The change history; with an embedder, read with the task's vector when the retrieval
        computed it (the past tasks' cosines to it then come in the same read), else with the
        past tasks' vectors."""
        if self.embedder is None:
            return self.store.change_history()
        return self.store.change_history(model_id=self.embedder.model_id, task_vector=retriever.embedded(task))

    def _similar(self, history: ChangeHistory, retriever: HybridRetriever, task: str) -> list[SimilarTask]:
        if history.task_similarities is not None:
            return similar_past_tasks(history, task, self.embedder)
        vector = retriever.embed(task) if self.embedder is not None and history.task_vectors else None
        model = self.embedder.model_id if self.embedder is not None else ""
        return similar_past_tasks(history, task, self.embedder, vector,
                                  lambda query, owners: self.store.similarities(model, query, "run", owners))

    def _recalibrate(self, findings: list[Classified], past: ChangeHistory) -> list[Classified]:
        out = []
        for f in findings:
            history = past.feedback_of(f.service)
            if len(history) >= FEEDBACK_MIN and f.tier in ("primary", "secondary"):
                rate = sum(1 for h in history if h.outcome == "confirmed") / len(history)
                f = evolve(f, confidence=round((1 - FEEDBACK_WEIGHT) * f.confidence + FEEDBACK_WEIGHT * rate, 2))
            out.append(f)
        return out

    def _record(self, surface: ChangeSurface, hints: tuple[str, ...] | list[str],
                findings: list[Classified] | None = None, usage: LlmUsage | None = None,
                retriever: HybridRetriever | None = None) -> ChangeSurface:
        run = ChangeSurfaceRun(
            None, surface.task, self.clock(), surface.classified_by, tuple(str(h) for h in hints),
            tuple(SurfaceFinding(f.service, f.tier, f.reason, f.confidence, f.evidence) for f in findings or ()),
            usage.input_tokens if usage else None, usage.output_tokens if usage else None,
            usage.cost_usd if usage else None,
        )
        run_id, recorded = attempt(lambda: self.store.add_change_surface_run(run))
        if not recorded:  # a read-only agent: the answer, without its record
            return evolve(surface, note=joined(surface.note, not_recorded(
                "run", "run_id is null, so feedback and verify cannot refer to it")))
        if self.embedder is not None:
            try:
                vec = retriever.embed(surface.task) if retriever else self.embedder.embed([surface.task])[0]
                self.store.put_embeddings([Embedding("run", f"run:{run_id}", "task",
                                                     make_id("task", surface.task), self.embedder.model_id,
                                                     tuple(vec))])
            except Exception:  # similar_past_tasks is a bonus; never fail the answer for it
                pass
        return evolve(surface, run_id=run_id)


def offline_findings(task: str, cands: dict[str, Candidate], total_terms: int, lookup: EvidenceIndex,
                     model: SystemModel, ranking: RankingModel | None = None, hinted: bool = False,
                     code: Callable[[], Mapping[str, float]] = dict, sized: bool = True) -> list[Classified]:
    """The deterministic answer: the rules (classify, contracts, the user-facing service, build
    work), then the answer's size (change/sizing.py) when the ranking model has one and ``sized``.
    ``code``: per service, how its code ranks for the task's words (asked only when sizing)."""
    services = model.list_services()
    m = ranking or default_model()
    findings = propagate(task, classify(cands, total_terms, lookup, len(services), m), cands, model)
    findings = add_ui(task, findings, services, routers(model))
    findings = add_cross_cutting(task, findings, services, model.technologies,
                                 hinted or any(named(c) for c in cands.values() if c.via == "match"))
    if sized and m.sizing is not None:
        findings = size(findings, cands, list(dict.fromkeys(s.name for s in services)), total_terms, code(),
                        m.sizing, lookup)
    return findings


def _qualify(findings: list[Classified], cands: dict[str, Candidate], services: list[Service],
             graph: SystemGraph) -> list[Classified]:
    """Name each finding as the graph does: ``repository/name`` when several repositories have a
    service of that name, so that every next query the answer suggests resolves to one service."""
    first: dict[str, Service] = {}
    for s in sorted(services, key=lambda s: (s.name, s.repository)):
        first.setdefault(s.name, s)
    out = []
    for f in findings:
        svc = cands[f.service].service if f.service in cands else first.get(f.service)
        out.append(evolve(f, service=graph.label_of(svc)) if svc is not None else f)
    return out
