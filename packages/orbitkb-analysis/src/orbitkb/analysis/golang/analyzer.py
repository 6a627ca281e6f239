"""The Go ``LanguageAnalyzer``: tree-sitter parse per file, abstract interpretation per service."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.facts import LinkedFacts, ParseGap, ServiceContext
from orbitkb.analysis.golang import finalize
from orbitkb.analysis.golang.interp import Interp
from orbitkb.analysis.golang.ir import parse_go
from orbitkb.analysis.golang.program import Program

MAX_BYTES = 2_000_000


class GoAnalyzer:
    stack = "go"
    version = "go-5"
    suffixes = (".go",)
    reads_libraries = True  # in-repository packages imported from outside the service's folder

    def parse(self, path: str, text: str) -> dict[str, Any]:
        if len(text) > MAX_BYTES:
            return {"error": f"file larger than {MAX_BYTES} bytes"}
        if path.endswith(("_test.go", ".pb.go", ".pb.gw.go")) or "\x00" in text[:4096]:
            return {"skipped": "test, generated or binary file"}
        try:
            return parse_go(text)
        except (RecursionError, ValueError, UnicodeError) as exc:  # pathological nesting or bytes
            return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        library = frozenset(ctx.context_files)
        gaps = [
            ParseGap(p, "parse_error", str(d["error"]))
            for p, d in sorted(parsed.items())
            if isinstance(d, dict) and "error" in d and p not in library
        ]
        gaps += [
            ParseGap(p, "parse_error", "; ".join(d["warnings"]))
            for p, d in sorted(parsed.items())
            if isinstance(d, dict) and d.get("warnings") and p not in library
        ]
        prog = Program(parsed)
        it = Interp(prog, library)
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
        msgs = finalize.messages(it.sink)
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
