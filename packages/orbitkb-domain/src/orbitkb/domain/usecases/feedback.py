"""RecordFeedback and VerifyChangeSurface: closing the loop on a change-surface prediction, by hand
(confirmed / rejected per service) or against the real git diff since a commit.

A store that refuses writes (a read-only agent) still gets its answer — the verdict counts so far,
the precision and recall — with a notice that nothing was recorded (and a null verification id)."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen
from cattrs.gen import make_dict_unstructure_fn, override

from orbitkb.domain.errors import InvalidInput, RepositoryNotFound, RunNotFound
from orbitkb.domain.model import Service
from orbitkb.domain.ports import GitReader, KnowledgeStore
from orbitkb.domain.recording import attempt, not_recorded
from orbitkb.domain.runs import Feedback, Verification
from orbitkb.domain.serialization import converter
from orbitkb.domain.usecases._clock import Clock, utc_now
from orbitkb.domain.usecases._common import find_service

OUTCOMES = ("confirmed", "rejected")


def _run_id(run_id: object) -> int:
    if isinstance(run_id, bool) or not isinstance(run_id, int) or run_id <= 0:
        raise InvalidInput(f"run_id must be a positive integer, got {run_id!r}")
    return run_id


@frozen
class FeedbackRecorded:
    run_id: int
    service: str
    outcome: str
    history: dict[str, int]
    #: Set (and only then in answers) when the verdict could not be recorded.
    notice: str | None = None


converter.register_unstructure_hook(FeedbackRecorded, make_dict_unstructure_fn(
    FeedbackRecorded, converter, notice=override(omit_if_default=True)))

#: What a verification answered on a store that refuses writes carries instead of its id.
VERIFICATION_NOT_RECORDED = not_recorded("verification", "verification_id is null and no feedback was recorded")


@frozen
class RecordFeedback:
    store: KnowledgeStore
    clock: Clock = utc_now

    def __call__(self, run_id: int, service: str, outcome: str) -> FeedbackRecorded:
        run_id = _run_id(run_id)
        if outcome not in OUTCOMES:
            raise InvalidInput(f"outcome must be confirmed or rejected, got {outcome!r}")
        if self.store.get_change_surface_run(run_id) is None:
            raise RunNotFound(f"no change-surface run {run_id}", hint="run_id comes from find_change_surface")
        svc, _ = find_service(self.store, service)
        _, recorded = attempt(lambda: self.store.add_feedback(Feedback(run_id, svc.name, outcome, self.clock())))
        history = self.store.list_feedback(svc.name)
        return FeedbackRecorded(run_id, svc.name, outcome,
                                {o: sum(1 for f in history if f.outcome == o) for o in OUTCOMES},
                                None if recorded else not_recorded("feedback"))


def owner_of(path: str, services: Sequence[Service]) -> Service | None:
    """The service whose root folder is the longest prefix of ``path`` ("." owns everything)."""
    best, best_len = None, -1
    for s in services:
        root = "" if s.root_dir in (".", "") else s.root_dir.rstrip("/") + "/"
        if path.startswith(root) and len(root) > best_len:
            best, best_len = s, len(root)
    return best


@frozen
class VerifyChangeSurface:
    """Compare a run's primary and secondary services with the services owning the files changed
    since a commit. With ``record_feedback``, each true positive is confirmed and each false
    positive rejected, once per (run, service); an empty diff records nothing. A store that refuses
    writes answers all the same, with a null id (``VERIFICATION_NOT_RECORDED`` says why)."""

    store: KnowledgeStore
    git: GitReader
    clock: Clock = utc_now

    def __call__(self, run_id: int, repository: str, since_commit: str, until: str | None = None,
                 record_feedback: bool = False) -> Verification:
        run_id = _run_id(run_id)
        run = self.store.get_change_surface_run(run_id)
        if run is None:
            raise RunNotFound(f"no change-surface run {run_id}", hint="run_id comes from find_change_surface")
        repo = self.store.get_repository(repository)
        if repo is None:
            names = tuple(r.name for r in self.store.list_repositories())
            raise RepositoryNotFound(f"repository {repository!r} is not indexed", names)
        if not isinstance(since_commit, str) or not since_commit.strip():
            raise InvalidInput("since_commit is required")
        # validated by the git adapter (resolve_commit) before any diff: never passed as an option
        changed = self.git.changed_files(repo.root_path, since_commit, until)
        services = self.store.list_services(repo.name)
        actual_set, unowned = set(), []
        for path in changed:
            owner = owner_of(path, services)
            if owner is None:
                unowned.append(path)
            else:
                actual_set.add(owner.name)
        in_repo = {s.name for s in services}
        # a finding named "<repository>/<name>" (a name several repositories use) counts for its repository only
        mine = f"{repo.name}/"
        predicted = sorted({f.service.removeprefix(mine) for f in run.findings
                            if f.tier in ("primary", "secondary")} & in_repo)
        actual = sorted(actual_set)
        tp = sorted(set(predicted) & actual_set)
        fp = sorted(set(predicted) - actual_set)
        fn = sorted(actual_set - set(predicted))
        v = Verification(
            None, run_id, repo.name, since_commit, self.clock(), tuple(predicted), tuple(actual), tuple(tp),
            tuple(fp), tuple(fn), tuple(unowned[:200]),
            round(len(tp) / len(predicted), 4) if predicted else None,
            round(len(tp) / len(actual), 4) if actual else None,
        )
        vid, recorded = attempt(lambda: self.store.add_verification(v))
        # an empty diff proves nothing about the prediction; repeats replace (one verdict per run
        # and service, kept by the store), so verifying again never drags confidence further down
        if record_feedback and changed and recorded:
            for name in tp:
                self.store.add_feedback(Feedback(run_id, name, "confirmed", self.clock()))
            for name in fp:
                self.store.add_feedback(Feedback(run_id, name, "rejected", self.clock()))
        return Verification(vid, *[getattr(v, a.name) for a in Verification.__attrs_attrs__][1:])
