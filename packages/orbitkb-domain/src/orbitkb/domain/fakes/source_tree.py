"""A SourceTree held in memory: ``MemorySourceTree({"svc/app.py": "print(1)"})``."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from orbitkb.domain.ports import SourceEntry


class MemorySourceTree:
    def __init__(self, files: Mapping[str, str | bytes], root: str = "memory", commit: str | None = None):
        self._files = {
            path: (data.encode("utf-8") if isinstance(data, str) else data) for path, data in files.items()
        }
        self._root = root
        self._commit = commit

    @property
    def root(self) -> str:
        return self._root

    @property
    def commit(self) -> str | None:
        return self._commit

    def list_files(self, prune: Callable[[str], bool] | None = None) -> Iterator[SourceEntry]:
        for path in sorted(self._files):
            parts = path.split("/")
            if prune and any(prune("/".join(parts[: i + 1])) for i in range(len(parts) - 1)):
                continue
            yield SourceEntry(path=path, size=len(self._files[path]))

    def read_bytes(self, path: str) -> bytes:
        try:
            return self._files[path]
        except KeyError:
            raise FileNotFoundError(path) from None
