"""IndexRepository: a folder or a past commit -> facts in the knowledge model.

Business rules:
- One repository name maps to one folder. Indexing another folder under an existing name is
  refused (its knowledge is never silently replaced) unless ``replace`` is set.
- A folder that held indexed files and now holds none (an unmounted disk, a failed checkout) is
  refused too, unless ``replace`` is set: an empty listing never wipes a repository silently.
- The snapshot is replaced atomically: a run killed midway leaves the previous index intact; a run
  left "running" by a killed process is marked "interrupted" by the next one.
- Incremental by content hash: the analyzer's per-file cache means unchanged files are not parsed.
- Calls are resolved against every service in the database, and calls stored earlier by other
  repositories that named one of these services are reconciled to it.
- After the facts are written, the post-index hooks run (architecture smells, LLM enrichment,
  embeddings); a failing hook is reported in the run's notes and never loses the facts.
- What the LLM spent is recorded twice: the run's totals, and one cost per service whose units
  were sent (cached units cost nothing), so ``status SERVICE`` can scope the index cost.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from pathlib import PurePath  # names only: no file-system access

from attrs import evolve, field, frozen

from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.change_history import HISTORY_LIMIT, with_history
from orbitkb.domain.enrichment.results import ServiceCost
from orbitkb.domain.errors import OrbitkbError, RepositoryConflict, RepositoryNotFound
from orbitkb.domain.ids import repr_hash
from orbitkb.domain.model import Gap, Repository, ServiceFacts
from orbitkb.domain.ports import (
    AnalysisRequest,
    CodeAnalyzer,
    CommitRecord,
    FolderLocator,
    GitReader,
    KnowledgeStore,
    SourceTree,
)
from orbitkb.domain.runs import IndexRun, LlmUsage, ServiceIndexCost
from orbitkb.domain.search_docs import iter_documents
from orbitkb.domain.summaries import describe_from_facts
from orbitkb.domain.usecases._clock import Clock, utc_now
from orbitkb.domain.usecases.reconcile import classify_facts, reconcile_other_repositories

Progress = Callable[[str, int, int], None]


@frozen
class IndexRequest:
    path: str
    repository_name: str | None = None
    commit: str | None = None
    forced_service: tuple[str, str] | None = None
    replace: bool = False
    #: An update of a repository already indexed (``orbitkb update``, the MCP refresh tool): refused
    #: with RepositoryNotFound when it is not, or no longer (removed meanwhile), indexed.
    if_indexed: bool = False


@frozen
class HookOutcome:
    name: str
    ok: bool
    message: str = ""
    llm_calls: int = 0
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    #: Why it failed, first distinct causes first (for the LLM: exit status, stderr, invalid JSON).
    causes: tuple[str, ...] = ()
    #: What the hook's LLM calls cost, service by service (the enrichment hook).
    service_costs: tuple[ServiceCost, ...] = ()


@frozen
class IndexResult:
    repository: Repository
    run: IndexRun
    services: tuple[str, ...]
    gaps: tuple[Gap, ...]
    files_total: int
    files_changed: int
    files_parsed: int
    removed_files: int
    reconciled_calls: int
    hooks: tuple[HookOutcome, ...] = ()


PostIndexHook = Callable[[Repository, Sequence[ServiceFacts]], HookOutcome]


@frozen
class IndexRepository:
    store: KnowledgeStore
    analyzer: CodeAnalyzer
    git: GitReader
    open_tree: Callable[[str], SourceTree]
    backend_name: str = "offline"
    hooks: Sequence[PostIndexHook] = field(factory=tuple)
    clock: Clock = utc_now
    #: Where folders are and whether two paths are one folder; without it, the tree ``open_tree``
    #: opens answers (its root, which it checked) and paths are compared as written.
    folders: FolderLocator | None = None
    #: How many past commits give each service its history vocabulary (0: none).
    history_limit: int = HISTORY_LIMIT

    def __call__(self, request: IndexRequest, progress: Progress | None = None) -> IndexResult:
        opened: SourceTree | None = None  # PathNotFound below: missing, or not a folder
        if self.folders is not None:
            path = self.folders.folder(request.path)
        else:
            opened = self.open_tree(request.path)
            path = opened.root
        name = (request.repository_name or PurePath(path).name or "root").strip()
        if request.if_indexed and self.store.get_repository(name) is None:
            raise RepositoryNotFound(f"repository {name!r} is not indexed",
                                     hint=f"index it with orbitkb index {path}")
        self._check_conflict(name, path, request.replace)
        is_git = self.git.is_repository(path)
        commit: str | None
        if request.commit:
            commit = self.git.resolve_commit(path, request.commit)
            tree: SourceTree = self.git.tree_at(path, commit)
        else:
            commit = self.git.head_commit(path) if is_git else None
            tree = opened or self.open_tree(path)
        self._mark_interrupted(name)
        started = self.clock()
        run = IndexRun(None, name, started, backend=self.backend_name, commit=commit)
        run = evolve(run, id=self.store.add_index_run(run))
        try:
            result = self._index(name, path, is_git, commit, tree, request, run, progress)
        except BaseException as exc:
            status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            self.store.update_index_run(evolve(run, status=status, finished_at=self.clock(),
                                               notes=str(exc)[:500] or type(exc).__name__))
            raise
        return result

    def _index(self, name: str, path: str, is_git: bool, commit: str | None, tree: SourceTree,
               request: IndexRequest, run: IndexRun, progress: Progress | None) -> IndexResult:
        first = self.store.get_repository(name) is None
        analysis = self.analyzer.analyze(tree, AnalysisRequest(name, request.forced_service),
                                         self.store.analysis_cache(), progress)
        if first:  # hooks may get ready while the facts are shaped and written (after the analysis:
            # its workers are forked processes, and a fork must not copy a thread midway through work)
            for hook in self.hooks:
                if callable(prepare := getattr(hook, "prepare", None)):
                    prepare()
        previous = {f.path: f.sha256 for f in self.store.list_indexed_files(name)}
        current = {f.path: f.sha256 for f in analysis.files}
        if previous and not current and not request.replace:
            raise RepositoryConflict(
                f"{path} is empty now, but repository {name!r} has {len(previous)} indexed files",
                hint=f"check the folder is mounted or checked out; --replace empties the repository, "
                f"orbitkb remove {name} forgets it")
        changed = sum(1 for p, h in current.items() if previous.get(p) != h)
        removed = sum(1 for p in previous if p not in current)

        others = [s for s in self.store.list_services() if s.repository != name]
        catalog = ServiceCatalog([*others, *(f.service for f in analysis.services)])
        facts = [describe_from_facts(f) for f in classify_facts(analysis.services, catalog, self.store)]
        repo = Repository(name=name, root_path=path, vcs="git" if is_git else "none",
                          indexed_commit=commit, indexed_at=self.clock())
        files = [evolve(f, repository=name) if f.repository != name else f for f in analysis.files]
        gaps = [evolve(g, repository=name) if g.repository != name else g for g in analysis.gaps]
        # repr of the frozen attrs model: every field, deterministic, and ~2x cheaper than to_json
        # on a no-change re-index of 20,000 files (where this fingerprint is most of the work left);
        # hashed item by item: the whole text was the peak of a cold index's memory
        fingerprint = repr_hash([facts, analysis.resources, gaps, files])
        cache = self.store.analysis_cache()
        key = f"snapshot:{name}"
        unchanged = cache.get_many([key]).get(key) == fingerprint and self.store.get_repository(name) is not None
        if not unchanged:
            # the history vocabulary is not part of the fingerprint: a commit that changes no fact
            # (docs, tests) neither re-reads the log nor rewrites every fact and reloads every
            # server's model for words whose ranking weight is nil; it catches up at the next change
            facts = with_history(facts, self._history(path, is_git, commit))
        reconciled = 0
        if unchanged:  # same facts as stored: only the commit and time move (freshness)
            self.store.upsert_repository(repo, if_indexed=request.if_indexed)
        else:
            self.store.replace_repository_facts(repo, facts, list(analysis.resources), gaps, files,
                                                iter_documents(facts), if_indexed=request.if_indexed)
            cache.put_many({key: fingerprint})
            reconciled = reconcile_other_repositories(self.store, facts, catalog)

        outcomes = []
        for hook in self.hooks:
            if unchanged and not getattr(hook, "runs_when_unchanged", True):
                continue
            if progress is not None and hasattr(hook, "with_progress"):
                hook = hook.with_progress(progress)
            try:
                outcomes.append(hook(repo, facts))
            except OrbitkbError as exc:
                outcomes.append(HookOutcome(getattr(hook, "__name__", type(hook).__name__), False, str(exc)))
        llm_calls = sum(o.llm_calls for o in outcomes)
        tokens_in = _sum_optional(o.input_tokens for o in outcomes)
        tokens_out = _sum_optional(o.output_tokens for o in outcomes)
        cost = _sum_optional(o.cost_usd for o in outcomes)
        failed = [o for o in outcomes if not o.ok]
        status = "partial" if failed else "ok"
        notes = "; ".join(f"{o.name}: {o.message}" for o in failed) or None
        run = evolve(run, finished_at=self.clock(), status=status, files_total=len(current),
                     files_changed=changed + removed, files_parsed=analysis.files_parsed,
                     services=len(facts), llm_calls=llm_calls, input_tokens=tokens_in,  # type: ignore[arg-type]
                     output_tokens=tokens_out, cost_usd=cost, notes=notes)  # type: ignore[arg-type]
        self.store.add_index_costs(_service_costs(run, outcomes))
        self.store.update_index_run(run)
        return IndexResult(repo, run, tuple(sorted(f.service.name for f in facts)), tuple(gaps),
                           len(current), changed, analysis.files_parsed, removed, reconciled, tuple(outcomes))

    def _history(self, path: str, is_git: bool, commit: str | None) -> list[CommitRecord]:
        """The last commits up to the indexed one (never after it); none outside git or when git
        cannot read them (a shallow or partial clone's log still reads what it holds)."""
        if not is_git or commit is None or self.history_limit <= 0:
            return []
        try:
            return self.git.history(path, commit, self.history_limit)
        except OrbitkbError:
            return []

    def _check_conflict(self, name: str, path: str, replace: bool) -> None:
        existing = self.store.get_repository(name)
        if existing is None or replace:
            return
        same = (self.folders.same_folder(existing.root_path, path) if self.folders
                else posixpath.normpath(existing.root_path) == posixpath.normpath(path))
        if not same:
            raise RepositoryConflict(
                f"repository {name!r} is already indexed from {existing.root_path}",
                hint=f"use --repository-name to index {path} as another repository, "
                "or --replace to replace its knowledge",
            )

    def _mark_interrupted(self, name: str) -> None:
        for r in self.store.list_index_runs(name, limit=5):
            if r.status == "running":
                self.store.update_index_run(evolve(r, status="interrupted", notes="the process stopped midway"))


def _sum_optional(values: object) -> float | int | None:
    vals = [v for v in values if v is not None]  # type: ignore[attr-defined]
    return sum(vals) if vals else None


def _service_costs(run: IndexRun, outcomes: Sequence[HookOutcome]) -> list[ServiceIndexCost]:
    """One record per service whose LLM units were sent in this run, summed over the hooks."""
    if run.id is None:  # never: the run was stored before the analysis began
        return []
    calls: dict[str, int] = {}
    usage: dict[str, LlmUsage] = {}
    names: dict[str, str] = {}
    for cost in (c for o in outcomes for c in o.service_costs if c.llm_calls):
        calls[cost.service_id] = calls.get(cost.service_id, 0) + cost.llm_calls
        usage[cost.service_id] = usage.get(cost.service_id, LlmUsage()) + cost.usage
        names[cost.service_id] = cost.service
    return [ServiceIndexCost(run.id, run.repository, sid, names[sid], calls[sid], usage[sid].input_tokens,
                             usage[sid].output_tokens, usage[sid].cost_usd)
            for sid in sorted(calls, key=lambda i: (names[i], i))]
