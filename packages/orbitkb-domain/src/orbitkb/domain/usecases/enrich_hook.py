"""EnrichAfterIndex (an index hook): the LLM semantic layer over the facts just written — only
units whose input changed are sent (content-hash cache), and a failure never loses the facts."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import evolve, frozen

from orbitkb.domain.enrichment import EnrichKnowledge, EnrichRequest
from orbitkb.domain.model import Repository, ServiceFacts
from orbitkb.domain.ports import GitReader, KnowledgeStore, LLMBackend, SourceTree
from orbitkb.domain.usecases.indexing import HookOutcome


@frozen
class EnrichAfterIndex:
    store: KnowledgeStore
    backend: LLMBackend
    open_tree: Callable[[str], SourceTree]
    git: GitReader | None = None
    jobs: int = 4
    progress: Callable[[str, int, int], None] | None = None

    def with_progress(self, progress: Callable[[str, int, int], None] | None) -> EnrichAfterIndex:
        return evolve(self, progress=progress)

    def _tree(self, repo: Repository) -> SourceTree | None:
        try:
            if self.git is not None and repo.vcs == "git" and repo.indexed_commit:
                head = self.git.head_commit(repo.root_path)
                if head != repo.indexed_commit:  # indexed a past commit: read excerpts from it
                    return self.git.tree_at(repo.root_path, repo.indexed_commit)
            return self.open_tree(repo.root_path)
        except Exception:
            return None  # facts-only prompts; the LLM still gets every deterministic fact

    def __call__(self, repo: Repository, facts: Sequence[ServiceFacts]) -> HookOutcome:
        result = EnrichKnowledge(self.store, self.backend, progress=self.progress).execute(
            EnrichRequest(repo.name, self._tree(repo), self.jobs))
        per_service = ", ".join(
            f"{s.service} {s.llm_calls} calls"
            + (f" ${s.usage.cost_usd:.4f}" if s.usage.cost_usd is not None else "")
            for s in result.services if s.llm_calls
        )
        msg = (f"{result.count('generated')} generated, {result.count('cached')} cached, "
               f"{len(result.failed)} failed ({self.backend.name})" + (f"; {per_service}" if per_service else ""))
        if result.aborted:
            msg += f"; stopped: {result.aborted}"
        return HookOutcome("llm", ok=not result.failed and not result.aborted, message=msg,
                           llm_calls=result.llm_calls, input_tokens=result.usage.input_tokens,
                           output_tokens=result.usage.output_tokens, cost_usd=result.usage.cost_usd,
                           causes=result.causes, service_costs=result.services)
