"""Link the parsed files of one Node/TypeScript service into LinkedFacts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..facts import LinkedFacts, ParseGap, RawApi, RawComponent, ServiceContext
from .attribution import Reach
from .link_facts import FactBuilder
from .resolve import ModuleIndex, Resolver
from .routing import Handled, RouteGraph, nest_apis
from .sdk_imports import sdk_calls
from .store_entities import store_entities


def link(ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
    files: dict[str, dict[str, Any]] = {}
    gaps: list[ParseGap] = []
    for path in sorted(parsed):
        data = parsed[path] or {}
        if "error" in data:
            gaps.append(ParseGap(path, "parse_error", str(data["error"])))
        else:
            files[path] = data
    resolver = Resolver(files, ModuleIndex(files, ctx.root_dir))
    graph = RouteGraph(files, resolver)
    graph.build()
    handled: list[Handled] = graph.apis() + nest_apis(files, resolver)
    builder = FactBuilder(files, resolver)
    handled += builder.message_apis()
    reach = Reach(files, resolver)
    owners = reach.owners((h.api.handler, h.handler_loc) for h in handled if h.handler_loc is not None)
    builder.owners = owners
    builder.build(graph.http_vcalls, reach)
    gaps += builder.config_refs()
    builder.entities += store_entities(files, resolver, {e.name for e in builder.entities})
    builder.calls += sdk_calls(files, {m.provider for m in builder.messages})
    apis = sorted({h.api for h in handled}, key=_api_key)
    components = builder.components(apis)
    frameworks = sorted({a.framework for a in apis if a.framework and a.kind == "http"})
    if not frameworks:  # message-only or gRPC-only apps (NestJS microservices, queue workers)
        frameworks = sorted({a.framework for a in apis if a.framework})
    if not frameworks and any(d.get("nest_bootstrap") for d in files.values()):
        frameworks = ["nestjs"]
    framework = "nestjs" if "nestjs" in frameworks else (frameworks[0] if frameworks else None)
    return LinkedFacts(
        components=tuple(components),
        apis=tuple(apis),
        # dict.fromkeys, not set: copies of one site (one per handler) keep their order, the
        # handler whose own body holds the site first.
        calls=tuple(sorted(dict.fromkeys(builder.calls), key=lambda c: (c.file, c.line, c.client, repr(c.url)))),
        messages=tuple(
            sorted(dict.fromkeys(builder.messages), key=lambda m: (m.file, m.line, m.direction, repr(m.channel)))
        ),
        entities=tuple(sorted(set(builder.entities), key=lambda e: (e.name, e.file, e.start_line))),
        grpc_implements=tuple(sorted({s for d in files.values() for s in d.get("grpc_implements", [])})),
        framework=framework,
        gaps=tuple(gaps),
    )


def _api_key(api: RawApi) -> tuple[Any, ...]:
    return (api.file, api.start_line, api.path, api.method, api.handler)


__all__ = ["RawComponent", "link"]

