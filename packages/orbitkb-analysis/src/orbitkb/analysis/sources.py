"""Stage 1 of the pipeline: walk, read, hash and parse (through the cache) every file once."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import define, field

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis.grpc import scan_implements
from orbitkb.analysis.parsing import ParseStage, flags
from orbitkb.analysis.registry import LoadedAnalyzer
from orbitkb.analysis.walk import FileRecord, Walker
from orbitkb.domain.model import Gap
from orbitkb.domain.ports import AnalysisCache, SourceTree

Progress = Callable[[str, int, int], None]


@define
class Sources:
    records: list[FileRecord] = field(factory=list)
    texts: dict[str, str] = field(factory=dict)  # manifests, config, docs, .proto, .cs
    parsed: dict[str, str] = field(factory=dict)  # path -> parse result JSON (see parsing.decode)
    entry_files: set[str] = field(factory=set)  # parsed with "entrypoint": true
    failed: set[str] = field(factory=set)  # parsed with an "error"
    gaps: list[Gap] = field(factory=list)
    files_parsed: int = 0
    grpc_registrations: dict[str, list[tuple[str, str | None]]] = field(factory=dict)  # path -> served


def read_sources(
    tree: SourceTree,
    repository: str,
    analyzers: Mapping[str, LoadedAnalyzer],
    suffixes: Mapping[str, str],
    cache: AnalysisCache,
    size_cap: int,
    workers: int | None,
    progress: Progress,
) -> Sources:
    walker = Walker(tree, repository, suffixes, size_cap)
    entries = walker.entries()
    total = len(entries)
    parseable = sum(1 for e in entries if ft.suffix_of(e.path) in suffixes)
    parsed_count = [0]

    def parse_progress(n: int) -> None:
        parsed_count[0] += n
        progress("parse", parsed_count[0], parseable)

    stage = ParseStage(analyzers, cache, workers, parse_progress, expected=parseable)
    out = Sources()
    progress("walk", 0, total)
    for done, record in enumerate(walker.records(entries), 1):
        out.records.append(record)
        if record.text is not None:
            # manifests and config are kept (setup.py is both Python code and a manifest);
            # C# files are kept because gRPC services are detected from their text
            if ft.wants_text(record.name) or (ft.suffix_of(record.name) == ".cs" and not record.test):
                out.texts[record.path] = record.text
            if record.stack is not None and not record.test:
                served = scan_implements(record.text)
                if served:
                    out.grpc_registrations[record.path] = served
            if record.stack is not None and record.stack in analyzers:
                stage.feed(record)  # the stage releases the text once parsed
            else:
                record.text = None
        if done % 1000 == 0:
            progress("walk", done, total)
    progress("walk", total, total)
    out.parsed = stage.finish()
    out.files_parsed = stage.files_parsed
    out.gaps = list(walker.gaps)
    for path, result in sorted(out.parsed.items()):
        entry, error = flags(result)
        if entry:
            out.entry_files.add(path)
        if error:
            out.failed.add(path)
            out.gaps.append(Gap(repository, path, "parse_error", error[:500]))
    return out
