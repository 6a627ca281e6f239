"""Per-file parsing through the analysis cache, in batches, optionally on worker processes.

Cache key: ``{stack}:{version}:{sha256}``; values are the parse dict as JSON text. Cache lookups
and writes are batched. Misses are parsed in this process, or — for large cold runs with
analyzers importable by module name — on a process pool while the main process keeps reading.
Results are kept as JSON text and decoded only when needed (``decode``): a service whose link
result is cached never decodes its files, and a cold run and a cached run see identical dicts.
They are held packed (``pack``: zlib level 1, ~4x smaller — the largest thing a cold index held),
compressed by the worker that parsed them and unpacked each time one is read; their flags (entry
point, error) are read once from the text and kept beside them.
Chunks on the pool are bounded (``MAX_PENDING`` per worker): the oldest is collected before more
are sent, so the main process never holds the text of every file waiting to be parsed.
A file replayed from the stat cache whose parse key is the one recorded there is not even looked
up: its flags come from the stat entry and its result is loaded only if a service must be linked
again (``ParsedResults``). A replayed file whose result is not cached is read again and parsed.
"""

from __future__ import annotations

import importlib
import json
import multiprocessing
import os
import sys
import threading
import zlib
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.reading.walk import FileRecord
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.analysis.vendors import code as vendorcode

BATCH = 512
POOL_MIN_MISSES = 256  # below this a pool's start-up costs more than it saves
CHUNK = 48
#: Chunks sent to the pool and not yet collected, per worker: enough to keep every worker busy while
#: the main process reads, few enough that the texts waiting (and results not yet held) stay bounded.
MAX_PENDING = 3
#: zlib level 1 for results held in memory: the fastest level, ~4x smaller JSON.
PACK_LEVEL = 1
#: Shorter results are held as text: zlib's header and a call would not pay for themselves.
PACK_MIN = 256


def pack(text: str) -> str | bytes:
    """A parse result's JSON text as held until it is read: packed, unless it is short."""
    return text if len(text) < PACK_MIN else zlib.compress(text.encode("utf-8", "surrogatepass"), PACK_LEVEL)


def unpack(held: str | bytes) -> str:
    """The JSON text of a held result (packed, or text kept as it came)."""
    return held if isinstance(held, str) else zlib.decompress(held).decode("utf-8", "surrogatepass")


def _safe_parse(analyzer: Any, path: str, text: str) -> tuple[str, bool]:
    """(json text, cacheable). An analyzer crash is a gap, and is not cached (a fix may follow).
    The file's vocabulary and the vendors it names ride along with its parse (``vocabulary.KEY``,
    ``vendorcode.KEY``), cached by content too."""
    try:
        result = analyzer.parse(path, text)
        if isinstance(result, dict) and "error" not in result:
            result[vocabulary.KEY] = vocabulary.file_words(text)
            refs = vendorcode.scan(path, text)  # the vendors its code names, cached with it too
            if refs:
                result[vendorcode.KEY] = refs
        return json.dumps(result, separators=(",", ":"), sort_keys=True), True
    except Exception as exc:  # noqa: BLE001 - a bug in one parser must not stop the index
        reason = (
            f"analyzer failed: {type(exc).__name__}: {str(exc).splitlines()[0][:160] if str(exc) else ''}"
        )
        return json.dumps({"error": reason}), False


def default_workers() -> int:
    return min(os.cpu_count() or 1, 4)


def can_fork() -> bool:
    """Worker processes are forked (spawned ones would re-run the caller's main script), and only
    from a single-threaded process on Linux, where forking cannot inherit another thread's lock.
    Native threads count too (an ONNX runtime loaded for embeddings starts its own): a fork from a
    process that has them can deadlock in the child, so /proc's task list is the judge."""
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def _worker_parse(module: str, items: list[tuple[str, str]]) -> list[tuple[str | bytes, bool]]:
    """Results packed where they were parsed: the main process receives and holds a quarter of the bytes."""
    analyzer = importlib.import_module(module).ANALYZER
    return [(pack(text), cacheable) for text, cacheable in (_safe_parse(analyzer, path, t) for path, t in items)]


class ParseStage:
    def __init__(
        self,
        analyzers: Mapping[str, LoadedAnalyzer],
        cache: Any,
        workers: int | None = None,
        progress: Callable[[int], None] | None = None,
        expected: int = 0,
        reload: Callable[[str, str], str | None] | None = None,
    ) -> None:
        self._analyzers = analyzers
        self._reload = reload or (lambda path, sha: None)
        self._known: dict[str, FileRecord] = {}  # replayed records whose result is deferred
        self._known_flags: dict[str, tuple[bool, str | None]] = {}
        self.resolved: dict[str, str] = {}  # path -> parse key, for results that are cached
        self._cache = cache
        self._progress = progress or (lambda n: None)
        self._buffer: list[FileRecord] = []
        self._pending: list[tuple[list[str], list[str], Future[list[tuple[str | bytes, bool]]]]] = []
        self._puts: dict[str, str] = {}
        self._twins: dict[str, list[str]] = {}  # key being parsed -> other paths with that content
        #: key -> a result the pool gave that is not cached (an error): a twin met later reuses it
        self._uncached: dict[str, str] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._workers = workers if workers is not None else default_workers()
        self._expected = expected
        self.parsed: dict[str, str | bytes] = {}  # path -> parse result, packed JSON text
        self.flags: dict[str, tuple[bool, str | None]] = {}  # path -> (entrypoint, error), when not the usual
        self.files_parsed = 0

    def key(self, record: FileRecord) -> str:
        analyzer = self._analyzers[record.stack or ""].analyzer
        return f"{analyzer.stack}:{analyzer.version}+{vocabulary.VERSION}+{vendorcode.version()}:{record.sha256}"

    def feed(self, record: FileRecord, known: list[Any] | None = None) -> None:
        """Queue one file (``record.stack`` must name a loaded analyzer); its text is released.
        ``known`` is ``[key, entrypoint, error]`` from the stat cache for a replayed file: when the
        key is still current the result is not looked up now (see ``ParsedResults``)."""
        if known is not None and record.from_stat and known[0] == self.key(record):
            self._known[record.path] = record
            self._known_flags[record.path] = (bool(known[1]), known[2])
            self.resolved[record.path] = known[0]
            self._progress(1)
            return
        self._buffer.append(record)
        if len(self._buffer) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        batch, self._buffer = self._buffer, []
        if not batch:
            return
        keys = {r.path: self.key(r) for r in batch}
        hits = self._cache.get_many(sorted(set(keys.values())))
        misses: dict[str, list[tuple[str, str]]] = {}
        for record in batch:
            key = keys[record.path]
            cached = hits.get(key) or self._puts.get(key)
            if cached is not None:
                self.resolved[record.path] = key
                self._store(record.path, cached)
            elif key in self._uncached:  # same content as an uncached result collected already
                self._store(record.path, self._uncached[key])
            elif key in self._twins:  # same content as a file already being parsed: parse once
                self._twins[key].append(record.path)
            else:
                text = record.text if not record.from_stat else self._reload(record.path, record.sha256)
                if text is None:  # a replayed file that changed or vanished since it was listed
                    self._store(record.path, json.dumps({"error": "file changed while indexing"}))
                    continue
                self._twins[key] = []
                misses.setdefault(record.stack or "", []).append((record.path, text))
            record.text = None
        done = len(batch) - sum(len(v) for v in misses.values())
        for stack, items in sorted(misses.items()):
            loaded = self._analyzers[stack]
            if self._use_pool(loaded, len(items)):
                for start in range(0, len(items), CHUNK):
                    chunk = items[start : start + CHUNK]
                    assert self._pool is not None
                    future = self._pool.submit(_worker_parse, loaded.module or "", chunk)
                    self._pending.append(([p for p, _ in chunk], [keys[p] for p, _ in chunk], future))
                    while len(self._pending) > MAX_PENDING * self._workers:
                        self._collect(self._pending.pop(0))
            else:
                for path, text in items:
                    self._finish_one(path, keys[path], *_safe_parse(loaded.analyzer, path, text))
                done += len(items)
        self._progress(done)
        if len(self._puts) >= BATCH:
            self._cache.put_many(self._puts)
            self._puts = {}

    def _use_pool(self, loaded: LoadedAnalyzer, misses: int) -> bool:
        if self._workers < 2 or loaded.module is None:
            return False
        if self._pool is None:
            if self._expected < POOL_MIN_MISSES or misses < CHUNK:
                return False
            if not can_fork():
                self._workers = 0
                return False
            self._pool = ProcessPoolExecutor(self._workers, mp_context=multiprocessing.get_context("fork"))
        return True

    def _collect(self, pending: tuple[list[str], list[str], Future[list[tuple[str | bytes, bool]]]]) -> None:
        """Wait for one chunk sent to the pool and hold its results."""
        chunk, chunk_keys, future = pending
        try:
            results = future.result()
        except Exception as exc:  # noqa: BLE001 - a dead worker (killed, out of memory)
            results = [
                (pack(json.dumps({"error": f"parser worker failed: {type(exc).__name__}"})), False)
            ] * len(chunk)
        for path, key, (text, cacheable) in zip(chunk, chunk_keys, results):
            self._finish_one(path, key, text, cacheable)
            if not cacheable:
                self._uncached[key] = unpack(text)
        self._progress(len(chunk))
        if len(self._puts) >= BATCH:  # their text is not held beside the packed results
            self._cache.put_many(self._puts)
            self._puts = {}

    def _finish_one(self, path: str, key: str, result: str | bytes, cacheable: bool) -> None:
        """``result``: JSON text parsed here, or as a worker packed it."""
        self.files_parsed += 1
        text = unpack(result)
        held = result if isinstance(result, bytes) else pack(text)
        if cacheable:
            self._puts[key] = text
        for one in (path, *self._twins.pop(key, [])):
            self._store(one, text, held)
            if cacheable:
                self.resolved[one] = key

    def _store(self, path: str, text: str, held: str | bytes | None = None) -> None:
        found = flags(text)
        if found != _USUAL:
            self.flags[path] = found
        self.parsed[path] = held if held is not None else pack(text)

    def finish(self) -> ParsedResults:
        self._flush()
        for pending in self._pending:
            self._collect(pending)
        self._pending = []
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        if self._puts:
            self._cache.put_many(self._puts)
            self._puts = {}
        return ParsedResults(
            self.parsed, self._known, {**self._known_flags, **self.flags}, self.resolved, self._cache, self._late
        )

    def _late(self, records: list[FileRecord]) -> tuple[dict[str, str], int]:
        """Results of deferred files the cache no longer holds: read again and parsed here."""
        out: dict[str, str] = {}
        parsed = 0
        puts: dict[str, str] = {}
        for record in records:
            key = self.key(record)
            text = self._reload(record.path, record.sha256)
            if text is None:
                out[record.path] = json.dumps({"error": "file changed while indexing"})
                continue
            out[record.path], cacheable = _safe_parse(
                self._analyzers[record.stack or ""].analyzer, record.path, text
            )
            parsed += 1
            if cacheable:
                puts[key] = out[record.path]
        if puts:
            self._cache.put_many(puts)
        return out, parsed


class ParsedResults:
    """path -> parse result JSON. Results of replayed files are loaded from the cache on demand
    (``load``, batched; done before linking forks workers), their flags known without loading.
    ``known_flags``: (entrypoint, error) of every result whose flags are not the usual ``(False,
    None)`` — held results are not unpacked to read them — and of the deferred ones."""

    def __init__(
        self,
        texts: dict[str, str | bytes],
        deferred: dict[str, FileRecord],
        known_flags: dict[str, tuple[bool, str | None]],
        keys: Mapping[str, str],
        cache: Any,
        late: Callable[[list[FileRecord]], tuple[dict[str, str], int]],
    ) -> None:
        self._texts = texts
        self._deferred = deferred
        self._known_flags = known_flags
        self.keys = keys  # path -> parse key of results that are cached
        self._late = late
        self._cache = cache
        self.files_parsed = 0  # deferred files parsed late (their cached result was gone)

    def __contains__(self, path: object) -> bool:
        return path in self._texts or path in self._deferred

    def __getitem__(self, path: str) -> str:
        if path in self._deferred:
            self.load([path])
        return unpack(self._texts[path])

    def __len__(self) -> int:
        return len(self._texts) + len(self._deferred)

    def paths(self) -> list[str]:
        return sorted([*self._texts, *self._deferred])

    def flags(self, path: str) -> tuple[bool, str | None]:
        known = self._known_flags.get(path)
        if known is not None:
            return known
        if path in self._deferred:  # released: a result with unusual flags has them known
            return _USUAL
        held = self._texts[path]
        return flags(held) if isinstance(held, str) else _USUAL  # packed here: its flags were kept

    def release(self, records: Iterable[FileRecord]) -> None:
        """Stop holding these files' results (their services are linked: nothing reads them again,
        and the memory serves the stages after). They stay listed, with their flags, and one asked
        for again is loaded from the cache like a replayed file's. Results the cache does not hold
        (errors) are kept."""
        for record in records:
            if record.path in self._texts and record.path in self.keys:
                del self._texts[record.path]
                self._deferred[record.path] = record

    def load(self, paths: Iterable[str]) -> None:
        want = {p: self.keys[p] for p in paths if p in self._deferred}
        if not want:
            return
        keys = sorted(set(want.values()))
        hits: dict[str, str] = {}
        for start in range(0, len(keys), BATCH):
            hits.update(self._cache.get_many(keys[start : start + BATCH]))
        missing = [self._deferred[p] for p in sorted(want) if want[p] not in hits]
        late, parsed = self._late(missing) if missing else ({}, 0)
        self.files_parsed += parsed
        for path, key in sorted(want.items()):
            self._texts[path] = hits[key] if key in hits else late[path]
            del self._deferred[path]


def decode(text: str) -> dict[str, Any]:
    """A parse result as a dict; anything unreadable becomes an ``error`` result."""
    try:
        value = json.loads(text)
    except ValueError:
        return {"error": "cached parse result is not JSON"}
    return value if isinstance(value, dict) else {"error": "parse result is not an object"}


_USUAL: tuple[bool, str | None] = (False, None)


def flags(text: str) -> tuple[bool, str | None]:
    """(entrypoint, error) of a parse result, decoding only the few results that can have them."""
    if '"entrypoint":true' not in text and '"error":' not in text:
        return False, None
    value = decode(text)
    error = value.get("error")
    return value.get("entrypoint") is True, (str(error) if error else None)
