"""HEAD commits remembered per repository until the files that define HEAD change.

Freshness is asked on every read (describe, relationships, change surface...), and one
``git rev-parse`` costs two processes (the hardened call first reads the repository's drivers).
What HEAD resolves to is decided by a few files only: ``HEAD`` in the git directory, the loose
ref it points at and ``packed-refs`` in the common directory. git rewrites each of them by
renaming a lock file over it, so a new commit, a checkout, a reset or a ``pack-refs`` changes
the inode, size or modification time of one of them; their stat (and HEAD's text) is the key.
A repository in the reftable format, or one whose files cannot be read, is never cached.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from attrs import frozen

#: (HEAD's text, then (inode, size, mtime_ns) of HEAD, the loose ref and packed-refs; None when absent)
Signature = tuple[object, ...]


@frozen
class GitDirs:
    git_dir: str  # HEAD lives here (per worktree)
    common_dir: str  # refs/ and packed-refs live here (shared by worktrees)


def _stat(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def signature(dirs: GitDirs) -> Signature | None:
    """What HEAD resolves to depends on these files only; None when it cannot be told safely."""
    if os.path.exists(os.path.join(dirs.common_dir, "reftable")):
        return None
    head_path = os.path.join(dirs.git_dir, "HEAD")
    try:
        with open(head_path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    parts: list[object] = [head, _stat(head_path)]
    if head.startswith(b"ref:"):
        ref = head[4:].strip().decode("utf-8", "surrogateescape")
        if not ref.startswith("refs/") or ".." in ref.split("/"):
            return None
        parts.append(_stat(os.path.join(dirs.common_dir, *ref.split("/"))))
        parts.append(_stat(os.path.join(dirs.common_dir, "packed-refs")))
    return tuple(parts)


class HeadCache:
    """``HeadCache(resolve)``: ``resolve(path)`` asks git for (GitDirs | None, commit | None).

    The signature is taken *before* git is asked, so a HEAD that moves while git answers is seen
    as a change on the next call; the first call for a path only learns its git directories.
    """

    def __init__(self, resolve: Callable[[str], tuple[GitDirs | None, str | None]]) -> None:
        self._resolve = resolve
        self._dirs: dict[str, GitDirs] = {}
        self._heads: dict[str, tuple[Signature, str | None]] = {}

    def head(self, path: str) -> str | None:
        key = os.path.abspath(path)
        dirs = self._dirs.get(key)
        before = signature(dirs) if dirs is not None else None
        held = self._heads.get(key)
        if before is not None and held is not None and held[0] == before:
            return held[1]
        found, commit = self._resolve(path)
        self._heads.pop(key, None)
        if found is None:
            self._dirs.pop(key, None)
        elif found != dirs:
            self._dirs[key] = found  # a new or moved repository: cache from the next call on
        elif before is not None:
            self._heads[key] = (before, commit)
        return commit
