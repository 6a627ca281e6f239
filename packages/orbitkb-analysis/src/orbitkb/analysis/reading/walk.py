"""Walking a SourceTree: pruning, the user's ignore file, size cap, binary and encoding checks.

Each file is read and hashed at most once. Files that need text (code for an analyzer, manifests
and configuration) are decoded here; everything else is only hashed. Problems become ``Gap``s.
A file whose size and mtime are those of the last index is not read at all: its hash and what the
walk learned from its text are replayed from the stat cache (``StatCache``).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from attrs import define

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.reading.ignore import IgnoreRules
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import AnalysisCache, SourceEntry, SourceTree

DEFAULT_SIZE_CAP = 1024 * 1024
IGNORE_FILE = ".orbitkbignore"
STAT_FORMAT = "3"  # bump when a stat entry's layout or meaning changes (3: file word counts)
STAT_BUCKETS = 64
#: A file modified this close to the walk is not recorded: a second write within the same mtime
#: tick would keep size and mtime and go unseen (git's "racily clean" files).
RACY_NS = 2_000_000_000
#: At most this many ``skipped_*`` / ``ignored`` gaps per repository; one more gap counts the rest.
SKIPPED_GAP_CAP = 200
#: Version-control metadata: pruned without a gap (never worth reporting).
_VCS_DIRS = frozenset({".git", ".hg", ".svn"})
#: Why a pruned folder is not indexed, by folder name (see ``filetypes.PRUNED_DIRS``).
_PRUNED_WHY = {
    **dict.fromkeys(
        ("node_modules", "bower_components", "jspm_packages", "vendor", "site-packages", ".eggs", "Pods",
         ".yarn", ".pnpm-store"),
        "vendored dependencies",
    ),
    **dict.fromkeys((".venv", "venv", "virtualenv"), "virtual environment"),
    **dict.fromkeys(
        ("target", "build", "dist", "out", "obj", ".next", ".nuxt", ".svelte-kit", ".angular", "DerivedData",
         ".terraform", ".serverless"),
        "build output",
    ),
    **dict.fromkeys(("generated", "generated-sources", "gen-src"), "generated code"),
    **dict.fromkeys(
        ("__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox", ".cache",
         ".parcel-cache", ".turbo", ".gradle", "coverage", ".nyc_output"),
        "caches and tool output",
    ),
}  # fmt: skip


def pruned_kind(name: str) -> str:
    """The gap kind of a pruned folder: ``skipped_hidden`` for a hidden folder no rule names
    (``.github``, ``.idea``), ``skipped_vendored`` for dependencies, build output and caches."""
    if name.startswith(".") and name not in _PRUNED_WHY:
        return "skipped_hidden"
    return "skipped_vendored"


def pruned_reason(name: str) -> str:
    """The reason of the gap of a folder ``filetypes.is_pruned_dir`` prunes."""
    if name.endswith(".egg-info"):
        return "build output (*.egg-info); not indexed"
    why = _PRUNED_WHY.get(name) or ("hidden folder" if name.startswith(".") else "vendored or generated")
    return f"{why} ({name}); not indexed"


@define(slots=True)
class FileRecord:
    """One walked file. ``text`` is set for code and configuration, None for everything else."""

    path: str
    size: int
    sha256: str
    text: str | None = None
    stack: str | None = None  # the analyzer stack that parses this file, if any
    test: bool = False  # under a test folder / named like a test: hashed, never parsed
    decoded: bool = False  # the walk decoded its text (code or configuration)
    gap: str | None = None  # the encoding gap the walk reported for it ("binary", "invalid_utf8")
    from_stat: bool = False  # replayed from the stat cache: never read in this run

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def dir(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else "."


#: The reasons of the gaps a walk reports from a file's bytes, replayed for unread files.
GAP_REASONS = {
    "binary": "contains NUL bytes; not text",
    "invalid_utf8": "not valid UTF-8; decoded with replacement characters",
}


def needs_text(path: str) -> bool:
    """True when later stages read this file's text (manifests, configuration, C# sources): such
    files are always read, never replayed from the stat cache."""
    name = path.rsplit("/", 1)[-1]
    return ft.wants_text(name) or (ft.suffix_of(name) == ".cs" and not ft.is_test_path(path))


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
        #: Folders and files left out by the built-in rules or .orbitkbignore: path -> (kind, reason)
        self._skipped: dict[str, tuple[str, str]] = {}

    def _gap(self, path: str, kind: str, reason: str) -> None:
        self.gaps.append(Gap(repository=self._repo, path=path, kind=kind, reason=reason))

    def _load_ignore(self) -> IgnoreRules:
        try:
            data = self._tree.read_bytes(IGNORE_FILE)
        except (OSError, KeyError, ValueError):
            return IgnoreRules()
        return IgnoreRules(_decode(data)[0])

    def _prune(self, dir_path: str) -> bool:
        # Listings prune the highest matching folder and never look inside it, so each gap is
        # recorded at that folder (trees that ask again for the same folder hit the dict).
        if dir_path in self._skipped:
            return True
        name = dir_path.rsplit("/", 1)[-1]
        if ft.is_pruned_dir(name):
            if name not in _VCS_DIRS:
                self._skipped[dir_path] = (pruned_kind(name), pruned_reason(name))
            return True
        rule = self.ignore.rule_for(dir_path, is_dir=True) if self.ignore else None
        if rule is not None:
            self._skipped[dir_path] = ("ignored", f"excluded by {IGNORE_FILE} rule `{rule}`; not indexed")
            return True
        return False

    def _report_skipped(self) -> None:
        """One gap per skipped folder or ignored file, sorted, at most ``SKIPPED_GAP_CAP``."""
        paths = sorted(self._skipped)
        for path in paths[:SKIPPED_GAP_CAP]:
            self._gap(path, *self._skipped[path])
        rest = paths[SKIPPED_GAP_CAP:]
        if rest:
            kinds: dict[str, int] = {}
            for path in rest:
                kind = self._skipped[path][0]
                kinds[kind] = kinds.get(kind, 0) + 1
            counts = ", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items()))
            self._gap(".", "skipped", f"{len(rest)} more skipped folders and files not listed ({counts})")

    def entries(self) -> list[SourceEntry]:
        """The files to read (pruned, ignored and generated files left out; bad symlinks reported)."""
        prune: Callable[[str], bool] = self._prune
        self._skipped = {}
        out = []
        for entry in self._tree.list_files(prune):
            path = entry.path
            name = path.rsplit("/", 1)[-1]
            if entry.kind == "symlink_outside":
                self._gap(path, "symlink_outside", "symbolic link leaving the repository; not followed")
                continue
            if entry.kind == "missing_object":
                self._gap(path, "missing_object", "its content is not in this clone (partial clone?); not read")
                continue
            if entry.kind == "unreadable":
                self._gap(path, "unreadable", "this folder cannot be listed (permissions?); not indexed")
                continue
            if entry.kind != "file" or name == IGNORE_FILE:
                continue
            if ft.is_generated(name):
                self._skipped[path] = ("skipped_generated", "generated code (by its file name); not indexed")
                continue
            rule = self.ignore.rule_for(path) if self.ignore else None
            if rule is not None:
                self._skipped[path] = ("ignored", f"excluded by {IGNORE_FILE} rule `{rule}`; not indexed")
                continue
            out.append(entry)
        self._report_skipped()
        return out

    def records(self, entries: list[SourceEntry] | None = None) -> Iterator[FileRecord]:
        for entry in self.entries() if entries is None else entries:
            record = self.read(entry.path, entry.size)
            if record is not None:
                yield record

    def replay(self, entry: SourceEntry, sha256: str, decoded: bool, gap: str | None) -> FileRecord | None:
        """The record ``read`` would give for a file known unchanged, without reading it."""
        if entry.size > self._size_cap:
            return self.read(entry.path, entry.size)  # reports the cap exactly as a read does
        record = FileRecord(entry.path, entry.size, sha256, decoded=decoded, gap=gap, from_stat=True)
        if gap is not None:
            self._gap(entry.path, gap, GAP_REASONS.get(gap, gap))
        if decoded:
            record.test = ft.is_test_path(entry.path)
            record.stack = None if record.test else self._suffix_stacks.get(ft.suffix_of(record.name))
        return record

    def reload(self, path: str, sha256: str) -> str | None:
        """The text of a replayed file, when a later stage needs it after all (its parse result is
        not cached); None when it can no longer be read or no longer has that content."""
        try:
            data = self._tree.read_bytes(path)
        except (OSError, KeyError, ValueError):
            return None
        if hashlib.sha256(data).hexdigest() != sha256:
            return None
        return _decode(data)[0]

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
                record.gap = "binary"
                self._gap(path, "binary", GAP_REASONS["binary"])
            return record
        text, valid = _decode(data)
        if not valid:
            record.gap = "invalid_utf8"
            self._gap(path, "invalid_utf8", GAP_REASONS["invalid_utf8"])
        record.text = text
        record.decoded = True
        record.test = ft.is_test_path(path)
        record.stack = stack if not record.test else None
        return record


class StatCache:
    """What the walk learned from each file, keyed by (path, size, mtime_ns), in the AnalysisCache.

    A value is ``[size, mtime_ns, sha256, decoded, gap, grpc, parse]`` (see ``sources``). Values
    are grouped in ``STAT_BUCKETS`` cache entries by a hash of the path, so a no-change re-index
    reads a few rows and a one-file change rewrites one bucket. ``signature`` covers whatever
    changes what a walk derives from the same bytes (tree root, size cap, suffix table, format):
    entries under another signature are ignored.
    """

    def __init__(self, cache: AnalysisCache, repository: str, signature: str, now_ns: int) -> None:
        self._cache = cache
        self._repo = repository
        self._sig = signature
        self._now = now_ns
        self._old: dict[int, dict[str, list[Any]]] = {}
        self._new: dict[int, dict[str, list[Any]]] = {}

    @staticmethod
    def _bucket(path: str) -> int:
        return zlib.crc32(path.encode("utf-8", "surrogatepass")) % STAT_BUCKETS

    def _key(self, bucket: int) -> str:
        return f"stat:{self._repo}:{bucket:02d}"

    def load(self) -> None:
        found = self._cache.get_many([self._key(b) for b in range(STAT_BUCKETS)])
        for bucket in range(STAT_BUCKETS):
            raw = found.get(self._key(bucket))
            try:
                value = json.loads(raw) if raw else None
            except ValueError:
                continue  # unreadable: the bucket is simply rebuilt
            if (
                isinstance(value, dict)
                and value.get("sig") == self._sig
                and isinstance(value.get("files"), dict)
            ):
                self._old[bucket] = value["files"]

    def lookup(self, entry: SourceEntry) -> list[Any] | None:
        """The stored value when the file's size and mtime are unchanged, else None."""
        if entry.mtime_ns is None:
            return None
        value = self._old.get(self._bucket(entry.path), {}).get(entry.path)
        if (
            isinstance(value, list)
            and len(value) == 8
            and value[0] == entry.size
            and value[1] == entry.mtime_ns
        ):
            return value
        return None

    def trusted(self, entry: SourceEntry) -> bool:
        return entry.mtime_ns is not None and entry.mtime_ns < self._now - RACY_NS

    def record(self, path: str, value: list[Any]) -> None:
        self._new.setdefault(self._bucket(path), {})[path] = value

    def save(self) -> None:
        """Writes the buckets whose content changed (none when nothing did)."""
        changed = {}
        for bucket in range(STAT_BUCKETS):
            new, old = self._new.get(bucket, {}), self._old.get(bucket)
            if new == old or (not new and old is None):
                continue
            changed[self._key(bucket)] = json.dumps(
                {"sig": self._sig, "files": new}, separators=(",", ":"), sort_keys=True
            )
        if changed:
            self._cache.put_many(changed)
