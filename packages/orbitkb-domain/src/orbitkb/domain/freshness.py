"""Freshness is computed on read, never stored: the indexed commit against the repository's
current commit. ``stale`` is None when it cannot be told (not git, or no commit recorded)."""

from __future__ import annotations

from orbitkb.domain.model import Freshness, Repository
from orbitkb.domain.ports import GitReader


class FreshnessProbe:
    """Asks git once per repository per probe (one probe per request)."""

    def __init__(self, git: GitReader | None) -> None:
        self._git = git
        self._heads: dict[str, str | None] = {}

    def current_commit(self, repo: Repository) -> str | None:
        if repo.name not in self._heads:
            head = None
            if self._git is not None and repo.vcs == "git":
                try:
                    head = self._git.head_commit(repo.root_path)
                except Exception:  # a moved or deleted checkout: freshness unknown, not an error
                    head = None
            self._heads[repo.name] = head
        return self._heads[repo.name]

    def of(self, repo: Repository | None) -> Freshness:
        if repo is None:
            return Freshness(None, None, None, None)
        current = self.current_commit(repo)
        source = repo.indexed_commit
        stale = None if (source is None or current is None) else source != current
        return Freshness(repo.indexed_at, _short(source), _short(current), stale)


def _short(commit: str | None) -> str | None:
    return commit[:12] if commit else None
