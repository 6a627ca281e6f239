"""The in-memory ``RunLog``: index runs and their per-service LLM costs, change-surface and
architecture runs, feedback and verifications, newest first; ids counted per kind as a database's
would be."""

from __future__ import annotations

import json
from collections.abc import Sequence

import attrs

from orbitkb.domain.errors import RunNotFound
from orbitkb.domain.fakes.memory.vectors import MemoryEmbeddingStore
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeHistory,
    ChangeSurfaceRun,
    Feedback,
    IndexRun,
    ServiceIndexCost,
    Verification,
)


class MemoryRunLog(MemoryEmbeddingStore):  # the change history carries the runs' vectors
    def add_index_run(self, run: IndexRun) -> int:
        with self._lock:
            run_id = self._new_id("index")
            self._index_runs[run_id] = attrs.evolve(run, id=run_id)
            return run_id

    def update_index_run(self, run: IndexRun) -> None:
        with self._lock:
            if run.id is None or run.id not in self._index_runs:
                raise RunNotFound(f"index run {run.id} does not exist")
            self._index_runs[run.id] = run

    def list_index_runs(self, repository: str | None = None, limit: int = 20) -> list[IndexRun]:
        with self._lock:
            runs = [r for _, r in sorted(self._index_runs.items(), reverse=True)]
        return [r for r in runs if repository in (None, r.repository)][: max(limit, 0)]

    def latest_index_statuses(self) -> dict[str, str]:
        with self._lock:
            return {r.repository: r.status for _, r in sorted(self._index_runs.items())}  # the newest wins

    def add_index_costs(self, costs: Sequence[ServiceIndexCost]) -> None:
        with self._lock:
            missing = sorted({c.run_id for c in costs} - set(self._index_runs))
            if missing:
                raise RunNotFound(f"index run {missing[0]} does not exist")
            for c in costs:
                self._index_costs[(c.run_id, c.service_id)] = c
            if costs:
                self._changed()  # describe_service shows them: a kept model must see them

    def list_index_costs(self, repository: str | None = None,
                         service_id: str | None = None) -> list[ServiceIndexCost]:
        with self._lock:
            found = sorted(self._index_costs.values(), key=lambda c: (-c.run_id, c.service, c.service_id))
        return [c for c in found if repository in (None, c.repository) and service_id in (None, c.service_id)]

    def add_change_surface_run(self, run: ChangeSurfaceRun) -> int:
        with self._lock:
            run_id = self._new_id("surface")
            self._surface_runs[run_id] = attrs.evolve(run, id=run_id)
            return run_id

    def get_change_surface_run(self, run_id: int) -> ChangeSurfaceRun | None:
        return self._surface_runs.get(run_id)

    def list_change_surface_runs(self, limit: int = 100) -> list[ChangeSurfaceRun]:
        with self._lock:
            return [r for _, r in sorted(self._surface_runs.items(), reverse=True)][: max(limit, 0)]

    def _require_run(self, run_id: int) -> None:
        if run_id not in self._surface_runs:
            raise RunNotFound(f"change-surface run {run_id} does not exist")

    def add_feedback(self, feedback: Feedback) -> None:
        with self._lock:
            self._require_run(feedback.run_id)
            self._feedback = [
                f for f in self._feedback if (f.run_id, f.service) != (feedback.run_id, feedback.service)
            ]
            self._feedback.append(feedback)

    def list_feedback(self, service: str | None = None) -> list[Feedback]:
        with self._lock:
            return [f for f in self._feedback if service in (None, f.service)]

    def add_verification(self, verification: Verification) -> int:
        with self._lock:
            self._require_run(verification.run_id)
            vid = self._new_id("verification")
            self._verifications[vid] = attrs.evolve(verification, id=vid)
            return vid

    def list_verifications(self, run_id: int | None = None) -> list[Verification]:
        with self._lock:
            found = [v for _, v in sorted(self._verifications.items(), reverse=True)]
        return [v for v in found if run_id in (None, v.run_id)]

    def change_history(self, limit: int = 500, model_id: str | None = None,
                       task_vector: Sequence[float] | None = None) -> ChangeHistory:
        with self._lock:
            vectors = (
                {e.owner_id: e.vector for e in self.list_embeddings(model_id, "run")}
                if model_id and task_vector is None else {}
            )
            history = ChangeHistory(
                tuple(self.list_change_surface_runs(limit)),
                tuple(self.list_feedback()),
                tuple(self.list_verifications()),
                vectors,
            )
            if not model_id or task_vector is None:
                return history
            return history.with_similarities(self.similarities(model_id, task_vector, "run", history.run_keys()))

    def add_architecture_run(self, run: ArchitectureRun) -> int:
        # Detail is free-form JSON in a real store: normalize it the same way (tuples -> lists).
        findings = tuple(
            attrs.evolve(f, detail=json.loads(json.dumps(f.detail, sort_keys=True, default=str)))
            for f in run.findings
        )
        with self._lock:
            run_id = self._new_id("architecture")
            self._architecture[run_id] = attrs.evolve(run, id=run_id, findings=findings)
            return run_id

    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        with self._lock:
            return [r for _, r in sorted(self._architecture.items(), reverse=True)][: max(limit, 0)]
