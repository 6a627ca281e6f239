"""FakeFolderLocator: folders known by name, no file system (POSIX paths, no symlinks)."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from orbitkb.domain.errors import PathNotFound


class FakeFolderLocator:
    """``FakeFolderLocator({"/src/shop"}, files={"/src/notes.txt"})``; ``None`` folders: every
    absolute path is a folder (for tests that only care about what lies inside)."""

    def __init__(self, folders: Iterable[str] | None = None, files: Iterable[str] = (), home: str = "/home/user",
                 cwd: str = "/work") -> None:
        self.folders = None if folders is None else {posixpath.normpath(f) for f in folders}
        self.files = {posixpath.normpath(f) for f in files}
        self.home, self.cwd = home, cwd

    def _absolute(self, path: str) -> str:
        if path == "~" or path.startswith("~/"):
            path = self.home + path[1:]
        return posixpath.normpath(posixpath.join(self.cwd, path))

    def folder(self, path: str) -> str:
        absolute = self._absolute(path)
        if absolute in self.files:
            raise PathNotFound(f"not a folder: {path}", hint="pass a repository folder, not a file")
        if self.folders is not None and absolute not in self.folders:
            raise PathNotFound(f"path does not exist: {path}", hint="pass the folder of a repository")
        return absolute

    def same_folder(self, a: str, b: str) -> bool:
        return self._absolute(a) == self._absolute(b)

    def inside(self, path: str, root: str) -> str | None:
        if not path.startswith("/"):
            return None
        real, top = posixpath.normpath(path), self._absolute(root)
        if real == top or real.startswith(top.rstrip("/") + "/"):
            return posixpath.relpath(real, top)
        return None
