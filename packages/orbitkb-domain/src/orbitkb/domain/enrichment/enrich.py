"""EnrichKnowledge: the semantic layer over a repository's facts, built bottom-up.

Business rules:
- Hierarchy: endpoints (with persistence, messaging and unreached-calls units alongside) → components,
  synthesized from their endpoints' summaries without re-reading code → the service overview,
  last, from its components.
- Cost: each unit's prompt (its excerpt, facts, prompt version) plus schema, backend and model is
  content-hashed; a unit whose hash is cached is never sent again. Because a component's input
  holds its endpoints' summaries and an overview's holds its components', a changed endpoint
  re-synthesizes its component and its service overview, and nothing else.
- Validation: every answer must match its unit's strict schema; one retry; then the unit is
  recorded as failed and the run goes on. ``LlmUnavailable``, or 3 units in a row failing with
  the same error, stops sending (every unit would fail alike) and is reported in ``aborted``;
  the first distinct errors are reported in ``causes``.
- Facts are never overwritten (see ``apply``); names an answer invents are dropped.
- Every static call gets a reason: in the unit of each endpoint whose handler reaches it (the
  first API's answer wins), or, when no handler reaches it, in its service's ``calls`` unit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from orbitkb.domain.enrichment import apply as fold
from orbitkb.domain.enrichment import units as build
from orbitkb.domain.enrichment.names import NameFilter
from orbitkb.domain.enrichment.phase import RunState, run_phase
from orbitkb.domain.enrichment.results import EnrichRequest, EnrichResult, ServiceCost
from orbitkb.domain.enrichment.snapshot import Snapshot
from orbitkb.domain.model import Provenance, TargetKind
from orbitkb.domain.ports import KnowledgeStore, LLMBackend
from orbitkb.domain.runs import LlmUsage


class EnrichKnowledge:
    def __init__(
        self,
        store: KnowledgeStore,
        backend: LLMBackend,
        known_externals: Sequence[str] = (),
        progress: Callable[[str, int, int], None] | None = None,
    ) -> None:
        self._store = store
        self._backend = backend
        self._known_externals = tuple(known_externals)
        self._progress = progress

    def execute(self, request: EnrichRequest) -> EnrichResult:
        snap = Snapshot.load(self._store, request.repository, request.service_ids)
        names = NameFilter(
            self._store.list_services(),
            (
                *self._known_externals,
                *(c.target for c in self._store.list_calls() if c.target_kind == TargetKind.EXTERNAL),
            ),
        )
        state = RunState()
        dropped: set[str] = set()
        tree = request.tree

        def phase(units: list[build.UnitSpec], stage: str) -> dict[str, Mapping[str, Any]]:
            return dict(run_phase(units, self._store, self._backend, request.jobs, state, self._progress, stage))

        # 1. endpoints, persistence, messaging: independent of each other.
        first: list[build.UnitSpec] = []
        for svc in snap.services:
            for api in snap.apis_of(svc.id):
                # Only static calls feed a prompt: an LLM-proposed call must not change the input
                # that proposed it, or the cache would never settle.
                static = [c for c in snap.calls_of_api(api.id) if c.provenance != Provenance.LLM]
                first.append(build.endpoint_unit(svc, api, static, snap.messages_of_api(api.id), tree))
            if snap.entities_of(svc.id):
                first.append(build.persistence_unit(svc, snap.entities_of(svc.id), tree))
            if snap.messages_of(svc.id):
                first.append(build.messaging_unit(svc, snap.messages_of(svc.id), snap.apis, tree))
            unreached = [c for c in snap.calls_of(svc.id) if not c.from_api_ids and c.provenance != Provenance.LLM]
            if unreached:
                first.append(build.calls_unit(svc, unreached, tree))
        answers = phase(first, "llm endpoints")
        explained: set[str] = set()
        for unit in sorted(first, key=lambda u: u.key):
            answer = answers.get(unit.key)
            if answer is None:
                continue
            if unit.kind == "endpoint":
                api, calls, lost = fold.apply_endpoint(
                    snap.apis[unit.target_id], answer, unit, snap.calls, names
                )
                snap.put_api(api)
                # A call several handlers reach: its first API's reason wins, else the first given.
                calls = [c for c in calls if c.from_api_id == api.id or c.id not in explained]
                explained.update(c.id for c in calls)
                snap.put_calls(calls)
                dropped.update(lost)
            elif unit.kind == "calls":
                snap.put_calls(fold.explain_calls(snap.calls, answer, unit))
            elif unit.kind == "persistence":
                snap.put_entities(fold.apply_persistence(snap.entities, answer, unit))
            else:
                snap.put_messages(fold.apply_messaging(snap.messages, answer, unit))

        # 2. components, from their endpoints' (new) summaries.
        second = [
            build.component_unit(snap.service(comp.service_id), comp, snap.apis_of_component(comp.id))
            for comp in snap.components_with_apis()
        ]
        answers = phase(second, "llm components")
        for unit in second:
            if unit.key in answers:
                snap.put_component(fold.apply_component(snap.components[unit.target_id], answers[unit.key]))

        # 3. overviews, last, from the components.
        third = [
            build.overview_unit(
                svc,
                snap.components_of(svc.id),
                snap.loose_apis_of(svc.id),
                snap.calls_of(svc.id),
                snap.entities_of(svc.id),
                snap.messages_of(svc.id),
            )
            for svc in snap.services
        ]
        answers = phase(third, "llm services")
        for unit in third:
            if unit.key in answers:
                snap.put_service(fold.apply_overview(snap.service(unit.target_id), answers[unit.key]))

        snap.write(self._store)
        return self._result(snap, state, dropped)

    def _result(self, snap: Snapshot, state: RunState, dropped: set[str]) -> EnrichResult:
        services = []
        total = LlmUsage()
        for svc in snap.services:
            t = state.tally(svc.id)
            total = total + t.usage
            services.append(
                ServiceCost(
                    svc.id, svc.name, t.llm_calls, t.prompt_bytes, t.generated, t.cached, t.failed, t.usage
                )
            )
        return EnrichResult(
            backend=self._backend.name,
            model=self._backend.model,
            units=tuple(sorted(state.outcomes, key=lambda u: u.key)),
            services=tuple(sorted(services, key=lambda s: s.service)),
            llm_calls=sum(s.llm_calls for s in services),
            prompt_bytes=sum(s.prompt_bytes for s in services),
            usage=total,
            dropped_names=tuple(sorted(dropped)),
            aborted=state.aborted,
            causes=tuple(state.causes),
        )
