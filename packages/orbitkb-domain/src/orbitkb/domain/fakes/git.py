"""FakeGitReader: commits and changed files held in memory (a dict of commit -> file contents)."""

from __future__ import annotations

from collections.abc import Mapping

from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.fakes.source_tree import MemorySourceTree


class FakeGitReader:
    """``FakeGitReader({"c1": {...files...}, "c2": {...}}, head="c2")`` — commits in order."""

    def __init__(self, commits: Mapping[str, Mapping[str, str | bytes]] | None = None, head: str | None = None,
                 path: str = "/repo") -> None:
        self.commits = dict(commits or {})
        self.head = head if head is not None else (list(self.commits)[-1] if self.commits else None)
        self.path = path

    def is_repository(self, path: str) -> bool:
        return bool(self.commits)

    def toplevel(self, path: str) -> str | None:
        return self.path if self.commits else None

    def head_commit(self, path: str) -> str | None:
        return self.head

    def resolve_commit(self, path: str, rev: str) -> str:
        if rev == "HEAD" and self.head:
            return self.head
        if rev not in self.commits:
            raise InvalidInput(f"no such commit: {rev}")
        return rev

    def changed_files(self, path: str, since: str, until: str | None = None) -> list[str]:
        a = self.commits[self.resolve_commit(path, since)]
        b = self.commits[self.resolve_commit(path, until or self.head or since)]
        return sorted(p for p in set(a) | set(b) if a.get(p) != b.get(p))

    def tree_at(self, path: str, commit: str) -> MemorySourceTree:
        full = self.resolve_commit(path, commit)
        return MemorySourceTree(self.commits[full], root=f"{path}@{full}", commit=full)
