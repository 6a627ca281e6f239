"""FakeGitReader: commits and changed files held in memory (a dict of commit -> file contents,
with an optional message per commit for the history)."""

from __future__ import annotations

from collections.abc import Mapping

from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports.sources import CommitRecord


class FakeGitReader:
    """``FakeGitReader({"c1": {...files...}, "c2": {...}}, head="c2")`` — commits in order, each
    the parent of the next; ``messages={"c2": "subject\n\nbody"}`` for the history."""

    def __init__(self, commits: Mapping[str, Mapping[str, str | bytes]] | None = None, head: str | None = None,
                 path: str = "/repo", messages: Mapping[str, str] | None = None) -> None:
        self.commits = dict(commits or {})
        self.messages = dict(messages or {})
        self.head = head if head is not None else (list(self.commits)[-1] if self.commits else None)
        self.path = path

    def is_repository(self, path: str) -> bool:
        return bool(self.commits)

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

    def history(self, path: str, until: str, limit: int) -> list[CommitRecord]:
        order = list(self.commits)
        end = order.index(self.resolve_commit(path, until))
        out = []
        for i in range(end, -1, -1):
            before = self.commits[order[i - 1]] if i else {}
            after = self.commits[order[i]]
            files = tuple(sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p)))
            if not files:
                continue
            subject, _, body = self.messages.get(order[i], order[i]).partition("\n")
            out.append(CommitRecord(order[i], subject.strip(), body.strip(), files))
        return out[:max(0, limit)]
