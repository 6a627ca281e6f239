"""FolderLocator over the local file system: existence, identity and containment of folders."""

from __future__ import annotations

import os

from orbitkb.domain.errors import PathNotFound


class OsFolderLocator:
    def folder(self, path: str) -> str:
        absolute = os.path.abspath(os.path.expanduser(path))
        if not os.path.exists(absolute):
            raise PathNotFound(f"path does not exist: {path}", hint="pass the folder of a repository")
        if not os.path.isdir(absolute):
            raise PathNotFound(f"not a folder: {path}", hint="pass a repository folder, not a file")
        return absolute

    def same_folder(self, a: str, b: str) -> bool:
        return os.path.realpath(a) == os.path.realpath(b)

    def inside(self, path: str, root: str) -> str | None:
        if not os.path.isabs(path):
            return None
        real_root, real = os.path.realpath(root), os.path.realpath(path)
        if real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep):
            return os.path.relpath(real, real_root).replace(os.sep, "/")
        return None
