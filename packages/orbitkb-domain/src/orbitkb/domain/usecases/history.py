"""ListChangeSurfaceRuns: past change-surface predictions, newest first, each with the feedback
recorded on it and its verifications against git (precision / recall) — the loop a person closes
by looking back at what orbitkb predicted."""

from __future__ import annotations

from collections import defaultdict

from attrs import frozen

from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.runs import ChangeSurfaceRun, Feedback, Verification
from orbitkb.domain.usecases._common import check_page, page


@frozen
class PastRun:
    run: ChangeSurfaceRun
    feedback: tuple[Feedback, ...]
    verifications: tuple[Verification, ...]


@frozen
class PastRuns:
    runs: tuple[PastRun, ...]
    total: int
    truncated: bool
    limit: int
    offset: int


@frozen
class ListChangeSurfaceRuns:
    """Runs newest first, paginated like every list (``limit`` default 50, at most 500)."""

    store: KnowledgeStore

    def __call__(self, limit: int | None = None, offset: int | None = None) -> PastRuns:
        limit, offset = check_page(limit, offset)
        runs = sorted(self.store.list_change_surface_runs(limit=100_000), key=lambda r: -(r.id or 0))
        chunk, p = page(runs, limit, offset)
        ids = {r.id for r in chunk}
        feedback: dict[int, list[Feedback]] = defaultdict(list)
        for f in self.store.list_feedback():
            if f.run_id in ids:
                feedback[f.run_id].append(f)
        checks: dict[int, list[Verification]] = defaultdict(list)
        for v in self.store.list_verifications():
            if v.run_id in ids:
                checks[v.run_id].append(v)
        return PastRuns(tuple(PastRun(r, tuple(feedback[r.id or 0]), tuple(checks[r.id or 0])) for r in chunk),
                        p.total, p.truncated, limit, offset)
