"""The Go ``LanguageAnalyzer``: tree-sitter parse per file, abstract interpretation per service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.facts import LinkedFacts, ParseGap, ServiceContext
from orbitkb.analysis.golang import finalize
from orbitkb.analysis.golang.interp import Interp
from orbitkb.analysis.golang.ir import parse_go
from orbitkb.analysis.golang.program import Program
from orbitkb.analysis.treesitter import TreeSitterAnalyzer, parse_gaps


class GoAnalyzer(TreeSitterAnalyzer):
    stack = "go"
    version = "go-18"
    suffixes = (".go",)
    grammar = ("tree_sitter_go", "language")
    reads_libraries = True  # in-repository packages imported from outside the service's folder
    skipped_endings = ("_test.go", ".pb.go", ".pb.gw.go", ".pb.micro.go")
    skip_reason = "test, generated or binary file"

    def read(self, path: str, text: str) -> dict[str, Any]:
        return parse_go(text)  # the Go reader keeps its own parser and line table

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        library = frozenset(ctx.context_files)
        gaps = parse_gaps(parsed, library)
        gaps += [
            ParseGap(p, "parse_error", "; ".join(d["warnings"]))
            for p, d in sorted(parsed.items())
            if isinstance(d, dict) and d.get("warnings") and p not in library
        ]
        foreign = frozenset(ctx.foreign_files)
        prog = Program(parsed, foreign)
        it = Interp(prog, library, foreign)
        it.run_all()
        gaps += [ParseGap(path, "unsupported", reason) for path, reason in it.errors]
        if it.exhausted:
            gaps.append(
                ParseGap(
                    ctx.root_dir, "unsupported", "Go interpretation budget exhausted: facts may be incomplete"
                )
            )
        apis = finalize.apis(it.sink)
        calls = finalize.calls(it.sink)
        msgs, channel_gaps = finalize.split_unresolved(finalize.messages(it.sink))
        gaps += channel_gaps
        return LinkedFacts(
            components=tuple(finalize.components(prog, apis, calls, msgs)),
            apis=tuple(apis),
            calls=tuple(calls),
            messages=tuple(msgs),
            entities=tuple(finalize.entities(prog, it.sink)),
            grpc_implements=tuple(sorted(it.sink.grpc_impls)),
            framework=finalize.framework(apis),
            gaps=tuple(gaps),
        )
