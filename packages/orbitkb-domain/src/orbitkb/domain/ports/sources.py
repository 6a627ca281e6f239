"""Source ports: the files of a repository (a working tree or a commit) and the git history."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Protocol, runtime_checkable

from attrs import frozen


@frozen
class CommitRecord:
    """One past commit as the history reader sees it: its message and the files it changed
    (repository-relative POSIX paths)."""

    commit: str
    subject: str
    body: str = ""
    files: tuple[str, ...] = ()


@frozen
class SourceEntry:
    """One entry of a source tree. ``kind`` is "file", "symlink_outside" (never followed) or
    "missing_object" (listed by git but absent from a partial clone).

    ``mtime_ns`` is the file's modification time when the tree knows one (a working tree); with
    the size it lets a re-index reuse what it learned from an unchanged file without reading it.
    """

    path: str  # POSIX, relative to the tree root
    size: int
    kind: str = "file"
    mtime_ns: int | None = None


@runtime_checkable
class SourceTree(Protocol):
    """Files of a repository: a working tree on disk or a commit read from git objects."""

    @property
    def root(self) -> str: ...

    @property
    def commit(self) -> str | None: ...

    def list_files(self, prune: Callable[[str], bool] | None = None) -> Iterator[SourceEntry]:
        """Every file under the root, sorted. ``prune(dir_path)`` True skips a folder entirely."""
        ...

    def read_bytes(self, path: str) -> bytes: ...


@runtime_checkable
class GitReader(Protocol):
    def is_repository(self, path: str) -> bool: ...

    def head_commit(self, path: str) -> str | None:
        """The current commit of the repository containing ``path``, None outside git."""
        ...

    def resolve_commit(self, path: str, rev: str) -> str:
        """Full hash of ``rev``; raises InvalidInput for anything that is not a commit."""
        ...

    def changed_files(self, path: str, since: str, until: str | None = None) -> list[str]:
        """Files changed between ``since`` and ``until`` (default: the working tree), repo-relative."""
        ...

    def tree_at(self, path: str, commit: str) -> SourceTree: ...

    def history(self, path: str, until: str, limit: int) -> list[CommitRecord]:
        """The last ``limit`` non-merge commits reachable from ``until`` (itself included, nothing
        after it), newest first, each with its message and the files it changed, relative to
        ``path`` (a commit touching nothing under ``path`` is left out)."""
        ...


@runtime_checkable
class FolderLocator(Protocol):
    """Where repositories live on this machine: the file-system questions a use case must not ask
    the operating system itself (the domain does no file-system I/O)."""

    def folder(self, path: str) -> str:
        """The absolute path of an existing folder (``~`` expanded); PathNotFound ("path does not
        exist" / "not a folder") otherwise."""
        ...

    def same_folder(self, a: str, b: str) -> bool:
        """Whether both paths name one folder once symlinks are resolved."""
        ...

    def inside(self, path: str, root: str) -> str | None:
        """For an absolute ``path`` inside ``root`` (symlinks resolved), its POSIX path relative to
        ``root`` ("." for the root itself); None when it lies elsewhere."""
        ...
