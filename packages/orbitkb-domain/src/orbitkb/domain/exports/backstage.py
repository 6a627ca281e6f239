"""Backstage catalog: catalog-info.yaml with Component, API and Resource entities (providesApis,
consumesApis, dependsOn) derived from code instead of hand-written descriptors. Owner and lifecycle
are not knowable from code: they are "unknown" until a team sets them."""

from __future__ import annotations

import json
import re

from orbitkb.domain.exports import _yaml
from orbitkb.domain.exports._names import unique_names
from orbitkb.domain.model import ApiKind, ServiceFacts
from orbitkb.domain.usecases.export import KnowledgeSnapshot

API_VERSION = "backstage.io/v1alpha1"


def entity_ref_name(name: str) -> str:
    """Backstage names: [a-zA-Z0-9] separated by [-_.], at most 63 characters."""
    s = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-_.")
    s = re.sub(r"[-_.]{2,}", "-", s)
    return (s[:63].rstrip("-_.")) or "unnamed"


def _openapi(f: ServiceFacts) -> str:
    paths: dict[str, dict[str, object]] = {}
    for a in f.apis:
        if a.kind != ApiKind.HTTP:
            continue
        methods = ["get", "post", "put", "patch", "delete"] if a.method in ("ANY", "ALL", "*") else [a.method.lower()]
        openapi_path = re.sub(r"[:<]([A-Za-z_][A-Za-z0-9_]*)(?::[^>/]*)?>?", r"{\1}", a.path)
        for m in methods:
            paths.setdefault(openapi_path, {})[m] = {
                "operationId": a.handler, "summary": (a.summary or a.doc or a.handler).splitlines()[0][:200],
                "responses": {"default": {"description": "see the code"}}}
    doc = {"openapi": "3.0.3", "info": {"title": f.service.name, "version": "unknown"}, "paths": paths}
    return json.dumps(doc, indent=2, sort_keys=True)


def _grpc(f: ServiceFacts) -> str:
    rpcs = sorted(a.path for a in f.apis if a.kind == ApiKind.GRPC)
    return "// gRPC methods implemented (from .proto files and server registrations)\n" + "\n".join(rpcs)


def render_backstage(snapshot: KnowledgeSnapshot) -> dict[str, str]:
    docs: list[dict[str, object]] = []
    # a name two repositories share becomes <repository>-<name>: Backstage refs are by name
    names = unique_names([f.service for f in snapshot.services], lambda label: entity_ref_name(label.replace("/", "-")))
    provided: dict[str, list[str]] = {}
    for f in snapshot.services:
        n = names[f.service.id]
        apis = []
        if any(a.kind == ApiKind.HTTP for a in f.apis):
            apis.append((f"{n}-http"[:63], "openapi", _openapi(f)))
        if any(a.kind == ApiKind.GRPC for a in f.apis):
            apis.append((f"{n}-grpc"[:63], "grpc", _grpc(f)))
        provided[f.service.id] = [a[0] for a in apis]
        for api_name, api_type, definition in apis:
            docs.append({"apiVersion": API_VERSION, "kind": "API",
                         "metadata": {"name": api_name, "description": f"{api_type} API of {f.service.name}",
                                      "annotations": {"orbitkb.dev/generated": "true"}},
                         "spec": {"type": api_type, "lifecycle": "unknown", "owner": "unknown",
                                  "definition": definition}})
    resources: dict[str, str] = {}
    for r in snapshot.resources:
        resources[r.engine if r.engine != "unknown" else r.name] = r.kind
    for f in snapshot.services:
        s = f.service
        n = names[s.id]
        consumes = sorted({api for c in f.calls if c.to_service_id and c.to_service_id in provided
                           for api in provided[c.to_service_id]})
        depends = sorted({f"component:{names[c.to_service_id]}" for c in f.calls
                          if c.to_service_id in names and c.to_service_id != s.id})
        engines = sorted({e.engine for e in f.entities if e.engine != "unknown"})
        for engine in engines:
            resources.setdefault(engine, "database")
        depends += [f"resource:{entity_ref_name(e)}" for e in engines]
        tags = sorted({entity_ref_name(t).lower() for t in (s.stack, s.framework) if t})
        spec: dict[str, object] = {"type": "service", "lifecycle": "unknown", "owner": "unknown"}
        if provided[s.id]:
            spec["providesApis"] = provided[s.id]
        if consumes:
            spec["consumesApis"] = consumes
        if depends:
            spec["dependsOn"] = depends
        docs.append({"apiVersion": API_VERSION, "kind": "Component",
                     "metadata": {"name": n, "description": (s.short_desc or "")[:500], "tags": tags,
                                  "annotations": {"orbitkb.dev/repository": s.repository,
                                                  "orbitkb.dev/root-dir": s.root_dir,
                                                  "orbitkb.dev/description-provenance": s.desc_provenance.value}},
                     "spec": spec})
    for rname, kind in sorted(resources.items()):
        docs.append({"apiVersion": API_VERSION, "kind": "Resource",
                     "metadata": {"name": entity_ref_name(rname), "description": f"{kind} ({rname})"},
                     "spec": {"type": kind, "owner": "unknown"}})
    text = "# generated by orbitkb from the knowledge model; owner and lifecycle are unknown from code\n"
    text += "---\n".join(_yaml.dump(d) for d in docs)
    return {"catalog-info.yaml": text}
