"""SourceTree over a folder on disk. Symlinks that leave the root are reported, never followed."""

from __future__ import annotations

import os
import stat
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
        # os.scandir, not os.walk + islink + stat: the directory entry already knows what is a
        # folder or a symlink, so a regular file costs one lstat (for its size and mtime).
        entries: list[SourceEntry] = []
        folders = [("", str(self._root))]
        while folders:
            rel_dir, full_dir = folders.pop()
            try:
                scan = os.scandir(full_dir)
            except OSError:
                # a folder the listing cannot open is reported (as a gap), never silently missing
                entries.append(SourceEntry(rel_dir.rstrip("/") or ".", 0, "unreadable"))
                continue
            with scan:
                for item in scan:
                    rel = rel_dir + item.name
                    try:
                        entry = self._entry(item, rel, prune, folders)
                    except OSError:
                        continue  # vanished or unreadable while listing
                    if entry is not None:
                        entries.append(entry)
        entries.sort(key=lambda e: e.path)
        self._listed = {e.path for e in entries if e.kind == "file"}
        return iter(entries)

    def _entry(
        self,
        item: os.DirEntry[str],
        rel: str,
        prune: Callable[[str], bool] | None,
        folders: list[tuple[str, str]],
    ) -> SourceEntry | None:
        if item.is_symlink():
            if not self._inside(item.path):
                return SourceEntry(rel, 0, "symlink_outside")
            if os.path.isdir(item.path):
                return None  # never descend through a symlinked folder
            st = os.stat(item.path)
        elif item.is_dir(follow_symlinks=False):
            if prune is None or not prune(rel):
                folders.append((rel + "/", item.path))
            return None
        else:
            st = item.stat(follow_symlinks=False)
        if not stat.S_ISREG(st.st_mode):
            return None  # fifos, sockets, devices: reading one could block
        return SourceEntry(rel, st.st_size, mtime_ns=st.st_mtime_ns)

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
