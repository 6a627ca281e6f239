"""Records of what orbitkb did: index runs, change-surface runs, feedback, verifications,
architecture runs and stored embeddings. Task inferences live here, never among the facts."""

from __future__ import annotations

from attrs import evolve, field, frozen

from orbitkb.domain.model import Evidence


@frozen
class IndexedFile:
    """A file seen by the last index of a repository, with its content hash."""

    repository: str
    path: str
    sha256: str
    size: int
    service_id: str | None = None
    language: str | None = None


@frozen
class IndexRun:
    id: int | None
    repository: str
    started_at: str
    finished_at: str | None = None
    status: str = "running"  # running | ok | partial | failed
    backend: str = "offline"
    commit: str | None = None
    files_total: int = 0
    files_changed: int = 0
    files_parsed: int = 0
    services: int = 0
    llm_calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    notes: str | None = None


@frozen
class ServiceIndexCost:
    """What the LLM spent describing one service during one index run: the calls of its units
    (retries included) and the usage they reported; a field stays None when no call reported it."""

    run_id: int
    repository: str
    service_id: str
    service: str
    llm_calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


@frozen
class SurfaceFinding:
    service: str
    tier: str  # primary | secondary | no_change_hint
    reason: str
    confidence: float
    evidence: tuple[Evidence, ...] = ()


@frozen
class ChangeSurfaceRun:
    id: int | None
    task: str
    created_at: str
    backend: str = "offline"
    hint_services: tuple[str, ...] = ()
    findings: tuple[SurfaceFinding, ...] = ()
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


@frozen
class Feedback:
    run_id: int
    service: str
    outcome: str  # confirmed | rejected
    created_at: str


@frozen
class Verification:
    id: int | None
    run_id: int
    repository: str
    since_commit: str
    created_at: str
    predicted: tuple[str, ...] = ()
    actual: tuple[str, ...] = ()
    true_positives: tuple[str, ...] = ()
    false_positives: tuple[str, ...] = ()
    false_negatives: tuple[str, ...] = ()
    unowned_files: tuple[str, ...] = ()
    precision: float | None = None
    recall: float | None = None


@frozen
class ChangeHistory:
    """What past change-surface runs teach the next one, read at once (``RunLog.change_history``):
    runs newest first, feedback in the order given, verifications newest first, and either the task
    vectors of runs by owner id (``run:<id>``) for one embedding model, or — read with the new
    task's vector — each past task's cosine to it (``task_similarities``, by the same owner ids)."""

    runs: tuple[ChangeSurfaceRun, ...] = ()
    feedback: tuple[Feedback, ...] = ()
    verifications: tuple[Verification, ...] = ()
    task_vectors: dict[str, tuple[float, ...]] = field(factory=dict)
    task_similarities: dict[str, float] | None = None

    def run_keys(self) -> list[str]:
        """The owner ids of the runs' task vectors (``run:<id>``), newest run first."""
        return [f"run:{r.id}" for r in self.runs]

    def with_similarities(self, found: dict[str, float]) -> ChangeHistory:
        """This history read with a task's vector: each past task's cosine to it, by owner id."""
        return evolve(self, task_similarities=found)

    def feedback_of(self, service: str) -> list[Feedback]:
        return [f for f in self.feedback if f.service == service]

    def verifications_of(self, run_id: int | None) -> list[Verification]:
        return [v for v in self.verifications if v.run_id == run_id]


@frozen
class ArchitectureFinding:
    kind: str
    severity: str  # info | warning
    services: tuple[str, ...]
    reason: str
    detail: dict[str, object] = field(factory=dict)


@frozen
class ArchitectureRun:
    id: int | None
    created_at: str
    findings: tuple[ArchitectureFinding, ...] = ()


@frozen
class Embedding:
    """A vector for one field of one owner (a service, an API, a change-surface run...)."""

    owner_kind: str
    owner_id: str
    field: str
    content_hash: str
    model_id: str
    vector: tuple[float, ...]

    @property
    def dim(self) -> int:
        return len(self.vector)


@frozen
class VectorHit:
    """The best-matching field of one owner for a query vector: cosine similarity in [-1, 1]."""

    owner_kind: str
    owner_id: str
    field: str
    similarity: float


@frozen
class SearchHit:
    kind: str  # service | api | component | call | message | entity | doc
    service: str
    name: str
    score: float
    field: str  # the field that matched best
    snippet: str | None = None
    ref_id: str | None = None


@frozen
class LlmUsage:
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None

    def __add__(self, other: LlmUsage) -> LlmUsage:
        def add(a: float | int | None, b: float | int | None) -> float | int | None:
            if a is None and b is None:
                return None
            return (a or 0) + (b or 0)

        return LlmUsage(
            input_tokens=add(self.input_tokens, other.input_tokens),  # type: ignore[arg-type]
            output_tokens=add(self.output_tokens, other.output_tokens),  # type: ignore[arg-type]
            cost_usd=add(self.cost_usd, other.cost_usd),
        )
