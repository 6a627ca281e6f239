"""SourceTree over a folder on disk. Symlinks that leave the root are reported, never followed."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

from orbitkb.domain.errors import PathNotFound
from orbitkb.domain.ports import SourceEntry


class WorkingTreeSource:
    def __init__(self, root: str | os.PathLike[str], commit: str | None = None) -> None:
        path = Path(root).expanduser()
        if not path.exists():
            raise PathNotFound(f"path does not exist: {path}", hint="pass the folder of a repository")
        if not path.is_dir():
            raise PathNotFound(f"not a folder: {path}", hint="pass the folder of a repository, not a file")
        self._root = path.resolve()
        self._commit = commit
        #: Files the last listing found as regular files inside the root: safe to read without
        #: resolving their real path again (a realpath per file costs seconds on big trees).
        self._listed: set[str] = set()

    @property
    def root(self) -> str:
        return str(self._root)

    @property
    def commit(self) -> str | None:
        return self._commit

    def list_files(self, prune: Callable[[str], bool] | None = None) -> Iterator[SourceEntry]:
        root = str(self._root)
        entries: list[SourceEntry] = []
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
            rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
            rel_dir = "" if rel_dir == "." else rel_dir + "/"
            kept = []
            for d in dirnames:
                full = os.path.join(dirpath, d)
                rel = rel_dir + d
                if os.path.islink(full):
                    if not self._inside(full):
                        entries.append(SourceEntry(rel, 0, "symlink_outside"))
                    continue  # never descend through a symlinked folder
                if prune is not None and prune(rel):
                    continue
                kept.append(d)
            dirnames[:] = sorted(kept)
            for name in filenames:
                full = os.path.join(dirpath, name)
                rel = rel_dir + name
                if os.path.islink(full):
                    if not self._inside(full):
                        entries.append(SourceEntry(rel, 0, "symlink_outside"))
                        continue
                    if not os.path.isfile(full):
                        continue
                try:
                    size = os.stat(full).st_size
                except OSError:
                    continue
                entries.append(SourceEntry(rel, size))
        entries.sort(key=lambda e: e.path)
        self._listed = {e.path for e in entries if e.kind == "file"}
        return iter(entries)

    def read_bytes(self, path: str) -> bytes:
        full = self._root / path
        if path in self._listed and not os.path.islink(full):
            return full.read_bytes()
        resolved = full.resolve()
        if not self._inside(str(resolved)):
            raise PermissionError(f"outside the repository: {path}")
        return resolved.read_bytes()

    def _inside(self, path: str) -> bool:
        real = os.path.realpath(path)
        root = str(self._root)
        return real == root or real.startswith(root + os.sep)
