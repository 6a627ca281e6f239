"""The C# ``LanguageAnalyzer``: tree-sitter parse per file into an outline, then one service's
outlines linked into APIs, calls, messages and entities, each call and message attributed to every
API whose handler reaches it through the service's own methods."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from attrs import evolve

from orbitkb.analysis.dotnet import routes
from orbitkb.analysis.dotnet.clients import Clients
from orbitkb.analysis.dotnet.index import ServiceIndex
from orbitkb.analysis.dotnet.messaging import EventBus, Messages
from orbitkb.analysis.dotnet.persistence import Entities
from orbitkb.analysis.dotnet.reach import Reach
from orbitkb.analysis.dotnet.syntax import read_csharp
from orbitkb.analysis.facts import LinkedFacts, RawApi, RawComponent, ServiceContext
from orbitkb.analysis.treesitter import TreeSitterAnalyzer, parse_gaps

_PAGE = re.compile(r'^\ufeff?\s*@page(?:[ \t]+"([^"\n]*)")?[ \t]*\r?$', re.M)


class DotnetAnalyzer(TreeSitterAnalyzer):
    stack = "dotnet"
    version = "dotnet-3"
    suffixes = (".cs", ".cshtml")
    grammar = ("tree_sitter_c_sharp", "language")
    #: the projects a service references (``<ProjectReference>``: Application, Infrastructure…) run in
    #: its process: their DbContexts, clients and publishers are the service's own facts
    reads_libraries = True
    failures = (Exception,)  # a reader bug must cost one file, never the run

    def parse(self, path: str, text: str) -> dict[str, Any]:
        if path.endswith(".cshtml"):  # a Razor view: only its @page directive matters
            found = _PAGE.search(text[:4096])
            return {"page": found.group(1) or ""} if found else {"skipped": "Razor view, not a page"}
        return super().parse(path, text)

    def read(self, path: str, text: str) -> dict[str, Any]:
        root = self.root(text)
        out = read_csharp(root)
        if root.has_error and not out["types"] and not out["inv"] and text.strip():
            return {"error": "C# syntax error; nothing could be read"}
        return out

    def failed(self, exc: Exception) -> dict[str, Any]:
        if isinstance(exc, RecursionError):
            return {"error": "source nested too deeply to analyze"}
        return {"error": f"analyzer failure: {type(exc).__name__}: {exc}"[:300]}

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        gaps = parse_gaps(parsed)
        index = ServiceIndex(parsed)
        apis: list[RawApi] = []
        implements: set[str] = set()
        patterns = routes.conventional_patterns(index)
        for ref in index.types:
            service = routes.grpc_service(ref, index.static_imports(ref.file))
            if service is not None and ref.data["k"] == "class":
                implements.add(service)
                apis += routes.grpc_apis(ref, service)
            elif routes.is_controller(index, ref):
                apis += routes.controller_apis(index, ref, patterns)
            else:
                apis += routes.page_apis(ref, index.pages)
        apis += routes.MinimalApis(index).apis()
        apis += routes.view_only_pages(index)
        clients = Clients(index)
        calls = clients.http() + clients.refit() + clients.grpc()
        bus = EventBus(index)
        inside = bus.implementations()  # the bus's own broker calls are its mechanism
        messages = [m for m in Messages(index).all() if m.component not in inside]
        messages += bus.messages(set(parsed) - set(ctx.context_files))
        entities = Entities(index, set(parsed) - set(ctx.context_files)).all()
        reach = Reach(index)
        handlers = {a.handler for a in apis}
        calls = [evolve(c, api_handler=h) for c in calls for h in reach.handlers(c.file, c.line, handlers)]
        messages = [
            evolve(m, api_handler=h) for m in messages for h in reach.handlers(m.file, m.line, handlers)
        ]
        apis = sorted(set(apis), key=lambda a: (a.file, a.start_line, a.method, a.path))
        return LinkedFacts(
            components=tuple(_components(index, apis, calls, messages)),
            apis=tuple(apis),
            calls=tuple(sorted(set(calls), key=lambda c: (c.file, c.line, c.kind, c.api_handler or ""))),
            messages=tuple(
                sorted(set(messages), key=lambda m: (m.file, m.line, m.direction, m.api_handler or ""))
            ),
            entities=tuple(sorted(set(entities), key=lambda e: (e.file, e.start_line, e.name))),
            grpc_implements=tuple(sorted(implements)),
            framework=_framework(apis),
            gaps=tuple(gaps),
        )


def _components(
    index: ServiceIndex, apis: list[RawApi], calls: list[Any], messages: list[Any]
) -> list[RawComponent]:
    used = {a.component for a in apis} | {c.component for c in calls} | {m.component for m in messages}
    out = []
    seen: set[str] = set()
    for ref in index.types:
        if ref.name in used and ref.name not in seen:
            seen.add(ref.name)
            out.append(
                RawComponent(ref.name, ref.file, "class", ref.data["l"], ref.data["e"], ref.data.get("doc"))
            )
    return out


def _framework(apis: list[RawApi]) -> str | None:
    kinds = [a.framework for a in apis if a.kind == "http" and a.framework]
    if not kinds:
        return "grpc" if any(a.kind == "grpc" for a in apis) else None
    return "aspnetcore"
