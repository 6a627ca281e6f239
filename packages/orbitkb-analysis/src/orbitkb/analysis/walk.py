"""Walking a SourceTree: pruning, the user's ignore file, size cap, binary and encoding checks.

Each file is read and hashed exactly once. Files that need text (code for an analyzer, manifests
and configuration) are decoded here; everything else is only hashed. Problems become ``Gap``s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Mapping

from attrs import define

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.ignore import IgnoreRules
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import SourceEntry, SourceTree

DEFAULT_SIZE_CAP = 1024 * 1024
IGNORE_FILE = ".orbitkbignore"


@define(slots=True)
class FileRecord:
    """One walked file. ``text`` is set for code and configuration, None for everything else."""

    path: str
    size: int
    sha256: str
    text: str | None = None
    stack: str | None = None  # the analyzer stack that parses this file, if any
    test: bool = False  # under a test folder / named like a test: hashed, never parsed

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def dir(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else "."


def _decode(data: bytes) -> tuple[str, bool]:
    """(text, valid): UTF-8 (BOM stripped), UTF-16 with a BOM, else UTF-8 with replacement."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), True
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError:
        return data.decode("utf-8", "replace"), False


class Walker:
    """Lists and reads a tree once; ``gaps`` collects what was skipped and why."""

    def __init__(
        self,
        tree: SourceTree,
        repository: str,
        suffix_stacks: Mapping[str, str],
        size_cap: int = DEFAULT_SIZE_CAP,
    ) -> None:
        self._tree = tree
        self._repo = repository
        self._suffix_stacks = suffix_stacks
        self._size_cap = size_cap
        self.gaps: list[Gap] = []
        self.ignore = self._load_ignore()

    def _gap(self, path: str, kind: str, reason: str) -> None:
        self.gaps.append(Gap(repository=self._repo, path=path, kind=kind, reason=reason))

    def _load_ignore(self) -> IgnoreRules:
        try:
            data = self._tree.read_bytes(IGNORE_FILE)
        except (OSError, KeyError, ValueError):
            return IgnoreRules()
        return IgnoreRules(_decode(data)[0])

    def _prune(self, dir_path: str) -> bool:
        name = dir_path.rsplit("/", 1)[-1]
        return ft.is_pruned_dir(name) or (bool(self.ignore) and self.ignore.ignored(dir_path, is_dir=True))

    def entries(self) -> list[SourceEntry]:
        """The files to read (pruned, ignored and generated files left out; bad symlinks reported)."""
        prune: Callable[[str], bool] = self._prune
        out = []
        for entry in self._tree.list_files(prune):
            path = entry.path
            name = path.rsplit("/", 1)[-1]
            if entry.kind == "symlink_outside":
                self._gap(path, "symlink_outside", "symbolic link leaving the repository; not followed")
                continue
            if entry.kind != "file" or ft.is_generated(name) or name == IGNORE_FILE:
                continue
            if self.ignore and self.ignore.ignored(path):
                continue
            out.append(entry)
        return out

    def records(self, entries: list[SourceEntry] | None = None) -> Iterator[FileRecord]:
        for entry in self.entries() if entries is None else entries:
            record = self.read(entry.path, entry.size)
            if record is not None:
                yield record

    def read(self, path: str, size: int) -> FileRecord | None:
        name = path.rsplit("/", 1)[-1]
        suffix = ft.suffix_of(name)
        stack = self._suffix_stacks.get(suffix)
        is_code = stack is not None or suffix in ft.CODE_STACKS or suffix in ft.OTHER_CODE
        if size > self._size_cap:
            if suffix not in ft.BINARY_ASSETS:
                self._gap(path, "too_large", f"{size} bytes is above the {self._size_cap}-byte cap; skipped")
            return None
        try:
            data = self._tree.read_bytes(path)
        except (OSError, KeyError, ValueError) as exc:
            self._gap(path, "unreadable", f"cannot read: {exc.__class__.__name__}")
            return None
        if len(data) > self._size_cap:  # the listing may have under-reported the size
            self._gap(path, "too_large", f"{len(data)} bytes is above the {self._size_cap}-byte cap; skipped")
            return None
        record = FileRecord(path, len(data), hashlib.sha256(data).hexdigest())
        if not (is_code or ft.wants_text(name)):
            return record
        is_utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
        if not is_utf16 and b"\x00" in data[:8192]:
            if is_code:
                self._gap(path, "binary", "contains NUL bytes; not text")
            return record
        text, valid = _decode(data)
        if not valid:
            self._gap(path, "invalid_utf8", "not valid UTF-8; decoded with replacement characters")
        record.text = text
        record.test = ft.is_test_path(path)
        record.stack = stack if not record.test else None
        return record
