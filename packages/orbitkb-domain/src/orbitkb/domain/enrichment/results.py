"""Request and result types of the EnrichKnowledge use case."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.ports import SourceTree
from orbitkb.domain.runs import LlmUsage


@frozen
class EnrichRequest:
    repository: str
    #: Where excerpts are read (the repository's working tree or a commit); None = facts only.
    tree: SourceTree | None = None
    #: Units sent to the LLM at once.
    jobs: int = 4
    #: Service ids to enrich; empty = every service of the repository.
    service_ids: tuple[str, ...] = ()


@frozen
class UnitOutcome:
    key: str
    kind: str
    service_id: str
    status: str  # generated | cached | failed | skipped
    error: str | None = None


@frozen
class ServiceCost:
    service_id: str
    service: str
    llm_calls: int = 0
    prompt_bytes: int = 0
    generated: int = 0
    cached: int = 0
    failed: int = 0
    usage: LlmUsage = LlmUsage()


@frozen
class EnrichResult:
    backend: str
    model: str | None
    units: tuple[UnitOutcome, ...] = ()
    services: tuple[ServiceCost, ...] = ()
    llm_calls: int = 0
    prompt_bytes: int = 0
    #: Summed over every call that reported usage; a field stays None when no call reported it.
    usage: LlmUsage = LlmUsage()
    #: Names an answer gave that are neither indexed services nor known externals (dropped).
    dropped_names: tuple[str, ...] = ()
    #: Why the run stopped early (the backend became unavailable, or units kept failing alike),
    #: None when it did not.
    aborted: str | None = None
    #: The first distinct errors units failed with (exit status, stderr line, invalid answer).
    causes: tuple[str, ...] = ()

    def count(self, status: str) -> int:
        return sum(1 for u in self.units if u.status == status)

    @property
    def failed(self) -> tuple[UnitOutcome, ...]:
        return tuple(u for u in self.units if u.status == "failed")
