"""Building each enrichment unit: its prompt, its schema and the refs its answer may use.

A unit's input is only its own excerpt and facts (never the list of all services), so adding a
service elsewhere does not invalidate every cached answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from orbitkb.domain.enrichment import schemas
from orbitkb.domain.enrichment.excerpt import excerpt
from orbitkb.domain.enrichment.prompts import Section, build_prompt
from orbitkb.domain.model import (
    Api,
    Component,
    Evidence,
    Message,
    PersistenceEntity,
    Service,
    ServiceCall,
)
from orbitkb.domain.ports import SourceTree

MAX_ENTITY_FIELDS = 30
MAX_EXCERPTS_PER_UNIT = 6


@frozen
class UnitSpec:
    key: str  # "<kind>:<fact id>"
    kind: str
    service_id: str
    target_id: str  # the api / component / service the answer describes
    prompt: str
    schema: Mapping[str, Any]
    refs: Mapping[str, str] = field(factory=dict)  # ref in the answer -> fact id
    evidence: tuple[Evidence, ...] = ()


def _facts(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def _code_sections(tree: SourceTree | None, spans: Sequence[tuple[str, int, int]]) -> list[Section]:
    out: list[Section] = []
    for path, start, end in spans[:MAX_EXCERPTS_PER_UNIT]:
        ex = excerpt(tree, path, start, end)
        if ex is not None:
            # Several excerpts share one prompt: each gets the smaller per-snippet cap.
            out.append(Section(f"{path}:{ex.start_line}-{ex.end_line}", ex.text, "helpers"))
    return out


def endpoint_unit(
    service: Service,
    api: Api,
    calls: Sequence[ServiceCall],
    messages: Sequence[Message],
    tree: SourceTree | None,
) -> UnitSpec:
    refs = {f"c{i}": c.id for i, c in enumerate(sorted(calls, key=lambda c: c.id), start=1)}
    by_id = {c.id: c for c in calls}
    facts = {
        "service": service.name,
        "stack": service.stack,
        "framework": service.framework,
        "endpoint": {"kind": str(api.kind), "method": api.method, "path": api.path, "handler": api.handler},
        "channel": api.channel,
        "calls": [
            {
                "ref": ref,
                "target": by_id[cid].target,
                "call_kind": str(by_id[cid].call_kind),
                "method": by_id[cid].method,
                "path": by_id[cid].path,
                "target_kind": str(by_id[cid].target_kind),
            }
            for ref, cid in refs.items()
        ],
        "messages": sorted(
            ({"direction": str(m.direction), "channel": m.channel, "provider": m.provider} for m in messages),
            key=lambda m: (m["direction"], m["channel"]),
        ),
    }
    sections = [
        Section("author documentation", api.doc or "", "doc"),
        Section("facts", _facts(facts), "facts"),
    ]
    ex = excerpt(tree, api.file, api.start_line, api.end_line, api.handler)
    evidence: tuple[Evidence, ...] = ()
    if ex is not None:
        sections.append(Section(f"{api.file}:{ex.start_line}-{ex.end_line}", ex.text, "code"))
        sections.extend(Section(label, text, "helpers") for label, text in ex.helpers)
        evidence = (Evidence(api.file, ex.start_line, ex.end_line, tree.commit if tree else None),)
    heading = f"endpoint {api.method} {api.path} of service {service.name}"
    return UnitSpec(
        key=f"endpoint:{api.id}",
        kind="endpoint",
        service_id=service.id,
        target_id=api.id,
        prompt=build_prompt("endpoint", heading, sections),
        schema=schemas.endpoint_schema(list(refs)),
        refs=refs,
        evidence=evidence or api.evidence,
    )


def component_unit(service: Service, component: Component, apis: Sequence[Api]) -> UnitSpec:
    facts = {
        "service": service.name,
        "component": {"name": component.name, "kind": component.kind, "file": component.file_path},
        "endpoints": [
            {"method": a.method, "path": a.path, "handler": a.handler, "summary": a.summary}
            for a in sorted(apis, key=lambda a: (a.path, a.method, a.id))
        ],
    }
    sections = [
        Section("author documentation", component.doc or "", "doc"),
        Section("facts", _facts(facts), "summaries"),
    ]
    return UnitSpec(
        key=f"component:{component.id}",
        kind="component",
        service_id=service.id,
        target_id=component.id,
        prompt=build_prompt("component", f"component {component.name} of service {service.name}", sections),
        schema=schemas.component_schema(),
    )


def overview_unit(
    service: Service,
    components: Sequence[Component],
    loose_apis: Sequence[Api],
    calls: Sequence[ServiceCall],
    entities: Sequence[PersistenceEntity],
    messages: Sequence[Message],
) -> UnitSpec:
    facts = {
        "service": service.name,
        "stack": service.stack,
        "framework": service.framework,
        "components": [
            {"name": c.name, "file": c.file_path, "summary": c.summary}
            for c in sorted(components, key=lambda c: (c.file_path, c.name))
        ],
        "endpoints_without_component": [
            {"method": a.method, "path": a.path, "summary": a.summary}
            for a in sorted(loose_apis, key=lambda a: (a.path, a.method))
        ],
        "depends_on": sorted(
            {(c.target, str(c.call_kind), c.reason or "") for c in calls},
        ),
        "persists": sorted({(e.name, e.kind, e.engine) for e in entities}),
        "messages": sorted({(str(m.direction), m.channel, m.provider) for m in messages}),
    }
    sections = [Section("README", service.readme or "", "doc"), Section("facts", _facts(facts), "summaries")]
    return UnitSpec(
        key=f"overview:{service.id}",
        kind="overview",
        service_id=service.id,
        target_id=service.id,
        prompt=build_prompt("overview", f"service {service.name}", sections),
        schema=schemas.overview_schema(),
    )


def persistence_unit(
    service: Service, entities: Sequence[PersistenceEntity], tree: SourceTree | None
) -> UnitSpec:
    ordered = sorted(entities, key=lambda e: e.id)
    refs = {f"e{i}": e.id for i, e in enumerate(ordered, start=1)}
    facts = {
        "service": service.name,
        "entities": [
            {
                "ref": ref,
                "name": e.name,
                "kind": e.kind,
                "engine": e.engine,
                "class": e.class_name,
                "fields": [f"{f.name}: {f.type}" for f in e.fields[:MAX_ENTITY_FIELDS]],
            }
            for ref, e in zip(refs, ordered)
        ],
    }
    spans = [
        (e.evidence[0].file, e.evidence[0].start_line, e.evidence[0].end_line) for e in ordered if e.evidence
    ]
    sections = [Section("facts", _facts(facts), "facts"), *_code_sections(tree, spans)]
    return UnitSpec(
        key=f"persistence:{service.id}",
        kind="persistence",
        service_id=service.id,
        target_id=service.id,
        prompt=build_prompt("persistence", f"persisted data of service {service.name}", sections),
        schema=schemas.persistence_schema(list(refs)),
        refs=refs,
    )


def messaging_unit(
    service: Service, messages: Sequence[Message], apis: Mapping[str, Api], tree: SourceTree | None
) -> UnitSpec:
    ordered = sorted(messages, key=lambda m: m.id)
    refs = {f"m{i}": m.id for i, m in enumerate(ordered, start=1)}
    facts = {
        "service": service.name,
        "messages": [
            {
                "ref": ref,
                "direction": str(m.direction),
                "channel": m.channel,
                "provider": m.provider,
                "handler": apis[m.api_id].handler if m.api_id and m.api_id in apis else None,
            }
            for ref, m in zip(refs, ordered)
        ],
    }
    spans = [
        (m.evidence[0].file, m.evidence[0].start_line, m.evidence[0].end_line) for m in ordered if m.evidence
    ]
    sections = [Section("facts", _facts(facts), "facts"), *_code_sections(tree, spans)]
    return UnitSpec(
        key=f"messaging:{service.id}",
        kind="messaging",
        service_id=service.id,
        target_id=service.id,
        prompt=build_prompt("messaging", f"messages of service {service.name}", sections),
        schema=schemas.messaging_schema(list(refs)),
        refs=refs,
    )


def calls_unit(service: Service, calls: Sequence[ServiceCall], tree: SourceTree | None) -> UnitSpec:
    """The calls no API handler reaches (startup code, jobs, gateway routes, declared SDKs)."""
    ordered = sorted(calls, key=lambda c: c.id)
    refs = {f"c{i}": c.id for i, c in enumerate(ordered, start=1)}
    facts = {
        "service": service.name,
        "calls": [
            {
                "ref": ref,
                "target": c.target,
                "call_kind": str(c.call_kind),
                "method": c.method,
                "path": c.path,
                "target_kind": str(c.target_kind),
            }
            for ref, c in zip(refs, ordered)
        ],
    }
    spans = [(c.evidence[0].file, c.evidence[0].start_line, c.evidence[0].end_line) for c in ordered if c.evidence]
    sections = [Section("facts", _facts(facts), "facts"), *_code_sections(tree, spans)]
    return UnitSpec(
        key=f"calls:{service.id}",
        kind="calls",
        service_id=service.id,
        target_id=service.id,
        prompt=build_prompt("calls", f"calls of service {service.name} outside its APIs", sections),
        schema=schemas.calls_schema(list(refs)),
        refs=refs,
    )
