"""Stage 1 of the pipeline: walk, read, hash and parse (through the cache) every file once.

With a stat cache (a tree that reports mtimes), a file whose size and mtime are unchanged since
the last index is not read: its hash, encoding gap, gRPC registrations and parse flags are
replayed, and its parse result is loaded only if its service must be linked again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from attrs import define, field

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.grpc.services import scan_implements
from orbitkb.analysis.reading import vocabulary
from orbitkb.analysis.reading.parsing import ParsedResults, ParseStage
from orbitkb.analysis.reading.walk import STAT_FORMAT, FileRecord, StatCache, Walker, needs_text
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import AnalysisCache, SourceEntry, SourceTree

Progress = Callable[[str, int, int], None]


@define
class Sources:
    records: list[FileRecord] = field(factory=list)
    texts: dict[str, str] = field(factory=dict)  # manifests, config, docs, .proto, .cs
    parsed: ParsedResults | dict[str, str] = field(factory=dict)  # path -> parse result JSON
    entry_files: set[str] = field(factory=set)  # parsed with "entrypoint": true
    failed: set[str] = field(factory=set)  # parsed with an "error"
    gaps: list[Gap] = field(factory=list)
    files_parsed: int = 0
    grpc_registrations: dict[str, list[tuple[str, str | None]]] = field(factory=dict)  # path -> served
    #: path -> the file's vocabulary, for decoded files no analyzer parses (config, other stacks)
    words: dict[str, dict[str, int]] = field(factory=dict)


def _stat_cache(
    cache: AnalysisCache, tree: SourceTree, repository: str, entries: list[SourceEntry], signature: str
) -> StatCache | None:
    """The repository's stat cache, or None for trees without mtimes (a commit, in memory)."""
    if not any(e.mtime_ns is not None for e in entries):
        return None
    stats = StatCache(cache, repository, f"{STAT_FORMAT}|{tree.root}|{signature}", time.time_ns())
    stats.load()
    return stats


def read_sources(
    tree: SourceTree,
    repository: str,
    analyzers: Mapping[str, LoadedAnalyzer],
    suffixes: Mapping[str, str],
    cache: AnalysisCache,
    size_cap: int,
    workers: int | None,
    progress: Progress,
    signature: str = "",
) -> Sources:
    """``signature`` names what else decides how a file is walked (the pipeline version)."""
    walker = Walker(tree, repository, suffixes, size_cap)
    entries = walker.entries()
    total = len(entries)
    parseable = sum(1 for e in entries if ft.suffix_of(e.path) in suffixes)
    parsed_count = [0]

    def parse_progress(n: int) -> None:
        parsed_count[0] += n
        progress("parse", parsed_count[0], parseable)

    suffix_sig = ",".join(f"{k}={v}" for k, v in sorted(suffixes.items()))
    stats = _stat_cache(cache, tree, repository, entries, f"{signature}|{size_cap}|{suffix_sig}")
    stage = ParseStage(analyzers, cache, workers, parse_progress, expected=parseable, reload=walker.reload)
    out = Sources()
    stored: dict[str, list[Any]] = {}
    progress("walk", 0, total)
    for done, entry in enumerate(entries, 1):
        value = stats.lookup(entry) if stats is not None and not needs_text(entry.path) else None
        if value is not None:
            record = walker.replay(entry, value[2], bool(value[3]), value[4])
            stored[entry.path] = value
        else:
            record = walker.read(entry.path, entry.size)
        if record is not None:
            out.records.append(record)
            _take(record, value, analyzers, stage, out)
        if done % 1000 == 0:
            progress("walk", done, total)
    progress("walk", total, total)
    out.parsed = parsed = stage.finish()
    out.files_parsed = stage.files_parsed
    out.gaps = list(walker.gaps)
    for path in parsed.paths():
        entry_point, error = parsed.flags(path)
        if entry_point:
            out.entry_files.add(path)
        if error:
            out.failed.add(path)
            out.gaps.append(Gap(repository, path, "parse_error", error[:500]))
    if stats is not None:
        _record_stats(stats, entries, out, parsed, stored)
    return out


def _take(
    record: FileRecord,
    value: list[Any] | None,
    analyzers: Mapping[str, LoadedAnalyzer],
    stage: ParseStage,
    out: Sources,
) -> None:
    """What later stages keep of one walked (or replayed) file."""
    if not record.decoded:
        return
    if record.text is not None:
        # manifests and config are kept (setup.py is both Python code and a manifest);
        # C# files are kept because gRPC services are detected from their text
        if ft.wants_text(record.name) or (ft.suffix_of(record.name) == ".cs" and not record.test):
            out.texts[record.path] = record.text
    if record.stack is not None and not record.test:
        if value is not None:
            served = [(name, impl) for name, impl in value[5] or ()]
        else:
            served = scan_implements(record.text or "")
        if served:
            out.grpc_registrations[record.path] = served
    if record.stack is not None and record.stack in analyzers:
        stage.feed(record, value[6] if value is not None else None)  # the stage releases the text
        return
    if not record.test and vocabulary.has_words(record.path):
        if record.text is not None and len(record.text) <= vocabulary.MAX_TEXT:
            out.words[record.path] = vocabulary.file_words(record.text)
        elif value is not None and len(value) > 7 and isinstance(value[7], dict):
            out.words[record.path] = value[7]
    record.text = None


def _record_stats(
    stats: StatCache,
    entries: list[SourceEntry],
    out: Sources,
    parsed: ParsedResults,
    stored: Mapping[str, list[Any]],
) -> None:
    """Stat entries for this run's files (see ``StatCache``): written only where they changed."""
    by_path = {e.path: e for e in entries}
    for record in out.records:
        key = parsed.keys.get(record.path)
        value = stored.get(record.path)
        if value is not None and key == (value[6][0] if value[6] else None):
            stats.record(record.path, value)  # replayed, and parsed under the same key: as stored
            continue
        entry = by_path.get(record.path)
        if entry is None or entry.size != record.size or not stats.trusted(entry) or needs_text(record.path):
            continue
        served = out.grpc_registrations.get(record.path)
        flags: list[Any] | None = None
        if key is not None:
            entry_point, error = parsed.flags(record.path)
            flags = [key, int(entry_point), error]
        stats.record(
            record.path,
            [
                entry.size,
                entry.mtime_ns,
                record.sha256,
                int(record.decoded),
                record.gap,
                [list(s) for s in served] if served else None,
                flags,
                out.words.get(record.path),
            ],
        )
    stats.save()
