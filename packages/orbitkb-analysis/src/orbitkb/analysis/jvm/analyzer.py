"""The JVM (Java/Kotlin, Spring Boot) language analyzer: ``parse`` one file, ``link`` a service."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath
from typing import Any

from orbitkb.analysis.facts import LinkedFacts, ParseGap, RawApi, RawComponent, RawEntity, ServiceContext
from orbitkb.analysis.jvm import apis as api_rules
from orbitkb.analysis.jvm import axon, micronaut, store_sites
from orbitkb.analysis.jvm.calls import CallBuilder
from orbitkb.analysis.jvm.datarest import data_rest_apis, uses_data_rest
from orbitkb.analysis.jvm.entities import (
    _entity,
    entity_of,
    repository_entity,
    repository_stand_in,
    stand_in_name,
)
from orbitkb.analysis.jvm.eventuate import aggregate_entity, aggregate_publisher, event_subscriber
from orbitkb.analysis.jvm.grammar import count_errors, parser
from orbitkb.analysis.jvm.ir import build
from orbitkb.analysis.jvm.java_syntax import read_java
from orbitkb.analysis.jvm.kotlin_syntax import read_kotlin
from orbitkb.analysis.jvm.messages import MessageBuilder
from orbitkb.analysis.jvm.reach import Reach
from orbitkb.analysis.jvm.reactive import ReactiveChannels
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex, is_test_path, join_path
from orbitkb.analysis.jvm.stream_bindings import binding_messages
from orbitkb.analysis.jvm.tables import JAXRS_ROOTS, KEY_VALUE_CLIENTS
from orbitkb.analysis.jvm.wrappers import expand_wrappers
from orbitkb.analysis.resolution.storenames import KEYSPACE


class JvmAnalyzer:
    stack = "jvm-spring"
    version = "19"
    suffixes = (".java", ".kt")
    reads_libraries = True  # library modules' constants and supertypes (ServiceContext.context_files)

    def parse(self, path: str, text: str) -> dict[str, Any]:
        lang = "kotlin" if path.endswith((".kt", ".kts")) else "java"
        try:
            tree = parser(lang).parse(text.encode("utf-8", "replace"))
            root = tree.root_node
            syntax = read_kotlin(root) if lang == "kotlin" else read_java(root)
            out = build(syntax, PurePosixPath(path).stem)
        except RecursionError:
            return {"error": "source nested too deeply to analyze"}
        except Exception as exc:  # a parser bug must cost one file, never the run
            return {"error": f"analyzer failure: {type(exc).__name__}: {exc}"[:300]}
        errors, first = count_errors(root)
        if errors:
            if not out["classes"] and text.strip():
                return {"error": f"{lang} syntax error at line {first}; nothing could be read"}
            out.setdefault("warnings", []).append(f"{errors} syntax error(s), first at line {first}")
        if out.get("entrypoint") and is_test_path(path):
            del out["entrypoint"]
        return out

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        context = frozenset(ctx.context_files)
        index = ServiceIndex(parsed, context)
        framework = _framework(index)
        gaps = [
            ParseGap(path, "parse_error", str(data["error"]))
            for path, data in sorted(parsed.items())
            if "error" in data and path not in context
        ]
        apis: list[RawApi] = []
        handlers: list[tuple[ClassRef | None, str, str]] = []
        app_prefix = _application_path(index, framework)
        grpc_impl: set[str] = set()
        msgs = MessageBuilder(index, framework or "spring", ctx.dependencies)
        reactive = ReactiveChannels(index, framework or "spring")
        found_messages: list[Any] = []
        data_rest = uses_data_rest(index)
        for ref in index.classes:
            found = api_rules.spring_apis(index, ref, framework or "spring")
            found += api_rules.jaxrs_apis(index, ref, app_prefix)
            service = api_rules.grpc_service(ref)
            if service is not None and ref.data["kind"] != "interface":
                grpc_impl.add(service)
                found += api_rules.grpc_apis(ref, service)
            found += api_rules.route_apis(index, ref, framework or "spring")
            found += data_rest_apis(index, ref, data_rest, framework or "spring")
            for api in found:
                method = api.handler.rsplit(".", 1)[-1]
                owner = (
                    ref
                    if api.handler.startswith(ref.name + ".")
                    else index.find(api.handler.rsplit(".", 1)[0])
                )
                handlers.append((owner, method, api.handler))
            apis.extend(found)
            handlers.extend((ref, m, h) for m, h in msgs.listeners(ref))
            handlers.extend((ref, m, h) for m, h in reactive.collect(ref))
            mn_apis, mn_messages, mn_handlers = micronaut.messaging(index, ref, framework or "micronaut")
            found_messages.extend(mn_messages)
            apis.extend(mn_apis)
            handlers.extend((ref, m, h) for m, h in mn_handlers)
            published = aggregate_publisher(index, ref)
            if published is not None:
                msgs.messages.append(published)
            msgs.messages.extend(event_subscriber(index, ref))
            msgs.messages.extend(axon.handlers(index, ref))
        apis.extend(msgs.apis)
        apis.extend(reactive.handler_apis())
        msgs.messages.extend(reactive.messages())
        msgs.messages.extend(found_messages)
        msgs.messages.extend(binding_messages(index, msgs.stream_service))
        reach = Reach(index)
        for owner, method, handler in handlers:
            reach.add_handler(owner, method, handler)
        calls = CallBuilder(index, reach)
        aggregates: list[RawEntity] = []  # entities found in code: aggregates, tables opened by name
        for ref in index.classes:
            calls.declarative(ref)
            calls.discovery_proxy(ref)
            calls.grpc_client_fields(ref)
            for m in ref.data["methods"]:
                for site in m.get("sites", ()):
                    if site["k"] in ("http", "grpc"):
                        calls.sites(ref, m, site)
                    elif site["k"] == "msg":
                        msgs.site(ref, m["name"], site, reach.handlers(ref, m["name"]))
                        aggregate = aggregate_entity(index, ref, site)
                        if aggregate is not None:
                            aggregates.append(aggregate)
                    elif site["k"] == "store":
                        aggregates.extend(store_sites.entities(index, ref, site, gaps))
        all_calls, all_messages = expand_wrappers(index, reach, calls, msgs)
        opened_classes = {e.class_name for e in aggregates if e.class_name}
        # a bean named only by its class (``@DynamoDbBean``) is the table a site opens with its schema
        entities = [e for e in _entities(index) if not (e.name == e.class_name and e.name in opened_classes)]
        known = {(e.name, e.class_name) for e in entities}
        declared = {(e.kind, e.name.lower()) for e in entities}  # a table a mapped class already names
        # a key-value store known only by its client stands in for its keys until one is named
        named_engines = {e.engine_hint for e in aggregates if e.name != KEYSPACE}
        entities += sorted(
            {
                (e.name, e.class_name, e.engine_hint): e
                for e in aggregates
                if (e.name, e.class_name) not in known and (e.kind, e.name.lower()) not in declared
                and not (e.name == KEYSPACE and e.framework in RUNTIME_KEY_FRAMEWORKS and e.engine_hint in named_engines)
            }.values(),
            key=lambda e: (e.file, e.start_line, e.name),
        )
        components = _components(index, apis, all_calls, all_messages)
        return LinkedFacts(
            components=tuple(sorted(components, key=lambda c: (c.file, c.start_line, c.name))),
            apis=tuple(sorted(apis, key=lambda a: (a.file, a.start_line, a.method, a.path, a.handler))),
            calls=tuple(sorted(all_calls, key=_call_key)),
            messages=tuple(sorted(all_messages, key=_msg_key)),
            entities=tuple(sorted(entities, key=lambda e: (e.file, e.start_line, e.name))),
            grpc_implements=tuple(sorted(grpc_impl)),
            framework=framework,
            gaps=tuple(gaps),
        )


#: frameworks of stores known only by their client (``KEY_VALUE_CLIENTS``)
RUNTIME_KEY_FRAMEWORKS = frozenset(framework for _engine, framework, _verbs in KEY_VALUE_CLIENTS.values())


def _call_key(c: Any) -> tuple[Any, ...]:
    return (c.file, c.line, c.client, c.method or "", repr(c.url), c.api_handler or "", c.grpc_service or "")


def _msg_key(m: Any) -> tuple[Any, ...]:
    return (m.file, m.line, m.direction, repr(m.channel), m.api_handler or "")


def _framework(index: ServiceIndex) -> str | None:
    imports = {i for ref in index.classes for i in ref.file.get("imports", ())}

    def has(prefix: str) -> bool:
        return any(i.startswith(prefix) for i in imports)

    if has("org.springframework.cloud.gateway"):
        return "spring-cloud-gateway"
    if has("org.springframework"):
        return "spring-boot"
    for prefix, name in (("io.quarkus", "quarkus"), ("io.micronaut", "micronaut"), ("io.ktor", "ktor")):
        if has(prefix):
            return name
    if has("javax.ws.rs") or has("jakarta.ws.rs"):
        return "jax-rs"
    if has("io.grpc"):
        return "grpc"
    return None


def _application_path(index: ServiceIndex, framework: str | None) -> str:
    """The path every JAX-RS resource is served under: the framework's served prefix (Quarkus's
    ``quarkus.http.root-path``), then the ``@ApplicationPath`` or the application path the
    configuration sets (``JAXRS_ROOTS``), as placeholders the fact builder resolves."""
    served, root, overrides = JAXRS_ROOTS.get(framework or "", ("", "", False))
    annotated = next(
        (api_rules.mapping_paths(index, ann, ref)[0] for ref in index.classes if (ann := ref.ann("ApplicationPath"))),
        None,
    )
    if overrides:  # a setting that replaces the annotation: the annotation is its default
        path = "${" + root + ":" + (annotated or "") + "}"
    else:
        path = annotated if annotated is not None else root
    return join_path(served, path) if served or path else ""


def _entities(index: ServiceIndex) -> list[RawEntity]:
    out: list[RawEntity] = []
    by_class: dict[str, RawEntity] = {}
    for ref in index.classes:
        entity = entity_of(index, ref)
        if entity is not None:
            out.append(entity)
            by_class.setdefault(ref.name, entity)
    for ref in index.classes:
        managed = repository_entity(index, ref)
        if managed is None:
            continue
        class_name, sig = managed
        simple = class_name.rsplit(".", 1)[-1]
        if simple in by_class:
            continue
        target = index.find(simple)
        if target is not None and target.data["kind"] not in ("interface", "file"):
            kind, engine, framework = sig
            name = stand_in_name(simple, kind, framework)
            entity = _entity(index, target, name, kind, engine, framework)
        else:
            entity = repository_stand_in(ref, simple, sig)
        by_class[simple] = entity
        out.append(entity)
    return out


def _components(
    index: ServiceIndex, apis: list[RawApi], calls: list[Any], messages: list[Any]
) -> list[RawComponent]:
    wanted = {(a.file, a.component) for a in apis} | {(c.file, c.component) for c in calls}
    wanted |= {(m.file, m.component) for m in messages}
    out = []
    for ref in index.classes:
        if (ref.path, ref.name) in wanted:
            out.append(
                RawComponent(
                    name=ref.name,
                    file=ref.path,
                    kind="module" if ref.data["kind"] == "file" else "class",
                    start_line=ref.data["line"],
                    end_line=ref.data["end"],
                    doc=ref.data.get("doc"),
                )
            )
    return out
