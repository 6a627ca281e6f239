"""Link the parsed files of one Node/TypeScript service into LinkedFacts."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any

from ..facts import LinkedFacts, ParseGap, RawApi, RawComponent, ServiceContext
from . import ctor_args, http_module, library_stores, listen_port
from .attribution import Reach
from .link_facts import FactBuilder
from .resolve import ModuleIndex, Resolver
from .routing import Handled, RouteGraph, nest_apis
from .sdk_imports import sdk_calls
from .store_entities import store_entities
from .stores import DOCUMENT_ENGINES, SQL_ENGINES


def link(ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
    files: dict[str, dict[str, Any]] = {}
    gaps: list[ParseGap] = []
    for path in sorted(parsed):
        data = parsed[path] or {}
        if "error" in data:
            gaps.append(ParseGap(path, "parse_error", str(data["error"])))
        else:
            files[path] = data
    library = frozenset(ctx.context_files) & set(files)
    if library:  # link only the library code the service uses: a big libs/ must not cost per app
        files, library = _used_library(files, ctx.root_dir, library)
    resolver = Resolver(files, ModuleIndex(files, ctx.root_dir, library))
    filled = ctor_args.fill(files, resolver)
    if any(filled[p] is not files[p] for p in files):  # calls took addresses given at `new`
        files = filled
        resolver = Resolver(files, ModuleIndex(files, ctx.root_dir, library))
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
    builder.entities += store_entities(files, resolver, {(e.kind, e.name) for e in builder.entities})
    builder.calls += sdk_calls(files, {m.provider for m in builder.messages})
    builder.calls = http_module.with_module_base(builder.calls, files, resolver)
    if library:
        keep = _used_library_files(files, resolver, library)
        runs = keep | _registered_controllers(files, resolver, keep, library)
        handled = [h for h in handled if h.api.file not in library or h.api.file in runs]
        builder.calls = [c for c in builder.calls if c.file not in library or c.file in runs]
        builder.messages = [m for m in builder.messages if m.file not in library or m.file in runs]
        # a library's schemas are the service's when it imports them and talks to that kind of
        # database itself (a GraphQL gateway importing entity classes as types persists nothing)
        drivers = {d for p in files if p not in library for d in files[p].get("drivers", ())}
        drivers |= _orm_access(files[p] for p in files if p not in library)
        builder.entities = [
            e for e in builder.entities if e.file not in library or (e.file in keep and _stored(e, drivers))
        ]
        gaps = [g for g in gaps if g.file not in library]
    builder.entities = library_stores.without_known_engines(_without_base_schemas(files, builder.entities))
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
        properties=listen_port.properties(files, set(library), resolver),
    )


def _api_key(api: RawApi) -> tuple[Any, ...]:
    return (api.file, api.start_line, api.path, api.method, api.handler)


__all__ = ["RawComponent", "link"]



def _used_library(
    files: dict[str, dict[str, Any]], root_dir: str, library: frozenset[str]
) -> tuple[dict[str, dict[str, Any]], frozenset[str]]:
    """The service's files with the library files it imports from (and the index files that
    re-export them, and what those import in turn: constants, base classes), the rest dropped."""
    resolver = Resolver(files, ModuleIndex(files, root_dir, library))
    keep = _used_library_files(files, resolver, library)
    keep |= {p for p in library if posixpath.splitext(posixpath.basename(p))[0] == "index"}
    for path in sorted(keep):
        for spec, name, rest in (files[path].get("imports") or {}).values():
            target = resolver.resolve(path, ["imp", spec, name, rest]) if spec else None
            if target is not None and len(target) > 1 and target[1] in library:
                keep.add(target[1])
    kept = {p: d for p, d in files.items() if p not in library or p in keep}
    return kept, library & frozenset(keep)


def _used_library_files(
    files: Mapping[str, dict[str, Any]], resolver: Resolver, library: frozenset[str]
) -> set[str]:
    """The library files defining what the service's own files import by name (through the
    library's index re-exports): a guard, a schema, a module the service uses is its own code."""
    used: set[str] = set()
    for path, data in files.items():
        if path in library:
            continue
        for spec, name, rest in (data.get("imports") or {}).values():
            if name == "*" or not spec:
                continue  # a relative spec may reach shared code outside every service (libraries.py)
            target = resolver.resolve(path, ["imp", spec, name, rest])
            if target is not None and len(target) > 1 and target[1] in library:
                used.add(target[1])
    return used


def _registered_controllers(
    files: Mapping[str, dict[str, Any]], resolver: Resolver, used: set[str], library: frozenset[str]
) -> set[str]:
    """Library files whose Nest controllers a library module the service uses imports: a module
    imports a controller class only to register it (`controllers: [PingController]`), so a shared
    `KafkaModule.register()` serves the library's controller in every app that imports the module."""
    out: set[str] = set()
    for path in sorted(used):
        for spec, name, rest in (files[path].get("imports") or {}).values():
            target = resolver.resolve(path, ["imp", spec, name, rest]) if spec and not rest else None
            if target is None or len(target) < 2 or target[1] not in library or target[1] in used:
                continue
            if any(ctrl.get("cls") == name for ctrl in files[target[1]].get("nest", ())):
                out.add(str(target[1]))
    return out


def _without_base_schemas(files: Mapping[str, dict[str, Any]], entities: list[Any]) -> list[Any]:
    """A document schema class other schema classes extend (``AbstractDocument`` holding ``_id``)
    is their common base, not a collection of its own."""
    bases = {
        (info.get("extends") or "").removeprefix("extends ").split("<")[0].strip()
        for data in files.values()
        for name, info in (data.get("classes") or {}).items()
        if any(e.class_name == name and e.kind == "document_collection" for e in entities)
    }
    return [e for e in entities if not (e.kind == "document_collection" and e.class_name in bases)]


#: (module, imported name) through which a service reads and writes an ORM's entities itself: the
#: repository it injects, the module registering its entities, the data source it opens (not the
#: decorators a class declaring a type uses). Any name of the Nest integration package counts.
ORM_ACCESS: dict[tuple[str, str], str] = {
    ("@nestjs/typeorm", "*"): "typeorm",
    ("typeorm", "Repository"): "typeorm",
    ("typeorm", "DataSource"): "typeorm",
    ("typeorm", "EntityManager"): "typeorm",
    ("typeorm", "getRepository"): "typeorm",
    ("typeorm", "createConnection"): "typeorm",
    ("@nestjs/mongoose", "*"): "mongoose",
    ("@nestjs/sequelize", "*"): "sequelize",
    ("sequelize-typescript", "Sequelize"): "sequelize",
    ("@mikro-orm/nestjs", "*"): "mikro-orm",
}


def _orm_access(files: Iterable[Mapping[str, Any]]) -> set[str]:
    """Frameworks whose entities the service's own files read and write (``orm:typeorm``)."""
    out: set[str] = set()
    for data in files:
        for spec, name, _rest in (data.get("imports") or {}).values():
            fw = ORM_ACCESS.get((spec, "*")) or ORM_ACCESS.get((spec, name))
            if fw:
                out.add(f"orm:{fw}")
    return out


def _stored(entity: Any, drivers: set[str]) -> bool:
    if entity.framework == library_stores.FRAMEWORK:
        return True  # the store library runs in the service that imports the file using it
    if f"orm:{entity.framework}" in drivers:
        return True  # it injects the ORM's repositories (or registers its entities) itself
    if entity.engine_hint:
        return entity.engine_hint in drivers
    wanted = DOCUMENT_ENGINES if entity.kind == "document_collection" else SQL_ENGINES
    return bool(drivers & wanted) if entity.kind in ("document_collection", "sql_table") else bool(drivers)
