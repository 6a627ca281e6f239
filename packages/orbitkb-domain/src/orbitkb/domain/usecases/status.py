"""Status: what is indexed, from which commit, how fresh, with which gaps, and what it cost.

Business rules:
- Without a service: every repository, its runs, and the usage of every index and change-surface run.
- With a service: its repository only, and the usage scoped to that service — what the LLM spent
  describing it in each index run (per-service costs) plus the change-surface runs that named it.
  Runs recorded before per-service costs existed only hold repository totals: they are counted
  (``unattributed_runs``), never guessed into the service's share.
"""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.integrations import is_unresolved_target
from orbitkb.domain.model import Freshness, Gap, Repository, Service
from orbitkb.domain.ports import GitReader, KnowledgeStore
from orbitkb.domain.runs import IndexRun, ServiceIndexCost, Verification
from orbitkb.domain.usecases._common import find_service


@frozen
class UsageTotals:
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None


@frozen
class FactCounts:
    apis: int = 0
    calls: int = 0
    calls_internal: int = 0
    calls_external: int = 0
    calls_unresolved: int = 0
    messages: int = 0
    entities: int = 0
    resources: int = 0


@frozen
class RepositoryStatus:
    repository: Repository
    freshness: Freshness
    services: int
    files: int
    gaps: tuple[Gap, ...]
    runs: tuple[IndexRun, ...]
    facts: FactCounts = FactCounts()


@frozen
class StatusReport:
    repositories: tuple[RepositoryStatus, ...]
    service: Service | None
    service_files: int | None
    totals: UsageTotals
    verifications: tuple[Verification, ...]
    #: With a service: what the LLM spent describing it, one entry per index run, newest first.
    service_costs: tuple[ServiceIndexCost, ...] = ()
    #: With a service: its repository's index runs that used the LLM before per-service costs
    #: were recorded (their cost is the repository's, not split by service).
    unattributed_runs: int = 0


def _total(values: list[float | int | None]) -> float | int | None:
    vals = [v for v in values if v is not None]
    return sum(vals) if vals else None


@frozen
class GetStatus:
    store: KnowledgeStore
    git: GitReader | None = None

    def __call__(self, service: str | None = None, runs: int = 10) -> StatusReport:
        probe = FreshnessProbe(self.git)
        svc = find_service(self.store, service)[0] if service else None
        repos = [r for r in self.store.list_repositories() if svc is None or r.name == svc.repository]
        out = []
        all_runs: list[IndexRun] = []
        service_files = None
        for repo in repos:
            files = self.store.list_indexed_files(repo.name)
            if svc is not None:
                service_files = sum(1 for f in files if f.service_id == svc.id)
            repo_runs = self.store.list_index_runs(repo.name, limit=runs)
            all_runs.extend(self.store.list_index_runs(repo.name, limit=100000))
            services = [s for s in self.store.list_services(repo.name) if svc is None or s.id == svc.id]
            out.append(RepositoryStatus(repo, probe.of(repo), len(services), len(files),
                                        tuple(self.store.list_gaps(repo.name)), tuple(repo_runs),
                                        self._counts(repo.name, {s.id for s in services})))
        surface = self.store.list_change_surface_runs(limit=100000)
        costs: list[ServiceIndexCost] = []
        unattributed = 0
        index_usage: list[IndexRun | ServiceIndexCost] = list(all_runs)
        if svc is not None:  # the change-surface runs that named this service (bare or repository/name)
            mine = (svc.name, f"{svc.repository}/{svc.name}")
            surface = [r for r in surface if any(f.service in mine for f in r.findings)]
            costs = self.store.list_index_costs(svc.repository, svc.id)
            split = {c.run_id for c in self.store.list_index_costs(svc.repository)}
            unattributed = sum(1 for r in all_runs if r.llm_calls and r.id not in split)
            index_usage = list(costs)
        totals = UsageTotals(
            _total([r.input_tokens for r in index_usage] + [r.input_tokens for r in surface]),  # type: ignore[arg-type]
            _total([r.output_tokens for r in index_usage] + [r.output_tokens for r in surface]),  # type: ignore[arg-type]
            _total([r.cost_usd for r in index_usage] + [r.cost_usd for r in surface]),
        )
        verifications = [v for v in self.store.list_verifications() if svc is None or v.repository == svc.repository]
        return StatusReport(tuple(out), svc, service_files, totals, tuple(verifications[-10:]), tuple(costs),
                            unattributed)

    def _counts(self, repository: str, ids: set[str]) -> FactCounts:
        calls = [c for c in self.store.list_calls() if c.from_service_id in ids]
        return FactCounts(
            apis=sum(n for sid, n in self.store.count_apis().items() if sid in ids),
            calls=len(calls),
            calls_internal=sum(1 for c in calls if c.to_service_id is not None),
            calls_external=sum(1 for c in calls if c.target_kind.value == "external" and not is_unresolved_target(c.target)),
            calls_unresolved=sum(1 for c in calls if c.to_service_id is None
                                 and (c.target_kind.value != "external" or is_unresolved_target(c.target))),
            messages=sum(1 for m in self.store.list_messages() if m.service_id in ids),
            entities=sum(1 for e in self.store.list_entities() if e.service_id in ids),
            resources=len(self.store.list_resources(repository)),
        )
