"""Inbound APIs: Spring MVC/WebFlux and Micronaut controllers (with inherited interface mappings),
JAX-RS resources, gRPC service implementations, functional routes and framework message listeners."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.facts import Expr, RawApi, RawMessage
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex, join_path, render
from orbitkb.analysis.jvm.shapes import request_fields, response_fields
from orbitkb.analysis.jvm.tables import (
    CONTROLLER_ANNOTATIONS,
    JAXRS_METHODS,
    MAPPINGS,
    MUTINY_TYPES,
    PATH_ATTRS,
    QUARKUS_GRPC,
)

_GRPC_SKIP = {"bindService", "toString", "hashCode", "equals"}


def ann_values(ann: list[Any] | None, *attrs: str) -> list[Any]:
    """The values of the first attribute present (annotation arrays flattened)."""
    if ann is None:
        return []
    for attr in attrs:
        if attr in ann[1]:
            return list(ann[1][attr])
    return []


def first_mapping(anns: list[list[Any]]) -> list[Any] | None:
    return next((a for a in anns if a[0] in MAPPINGS), None)


def mapping_paths(index: ServiceIndex, ann: list[Any] | None, ref: ClassRef) -> list[str]:
    values = [v for v in ann_values(ann, *PATH_ATTRS) if isinstance(v, list)]
    if not values:
        return [""]
    return [render(index.resolve(v, ref)) for v in values]


def mapping_methods(ann: list[Any], default: list[str]) -> list[str]:
    fixed = MAPPINGS.get(ann[0])
    if fixed is not None:
        return [fixed]
    named = []
    for v in ann_values(ann, "method"):
        if isinstance(v, list) and v and v[0][0] in ("ref", "unknown"):
            named.append(str(v[0][1]).rsplit(".", 1)[-1].upper())
    return sorted(set(named)) or default


def mapped_methods(
    index: ServiceIndex, ref: ClassRef
) -> list[tuple[dict[str, Any], ClassRef, dict[str, Any]]]:
    """(declared method, where the mapping lives, mapping method) for a class and its supertypes."""
    out: list[tuple[dict[str, Any], ClassRef, dict[str, Any]]] = []
    taken: set[str] = set()
    for m in ref.data["methods"]:
        if first_mapping(m["anns"]) is not None:
            out.append((m, ref, m))
            taken.add(m["name"])
    seen = {id(ref)}
    queue = index.supers(ref)
    while queue:
        sup = queue.pop(0)
        if id(sup) in seen:
            continue
        seen.add(id(sup))
        for m in sup.data["methods"]:
            if m["name"] in taken or first_mapping(m["anns"]) is None:
                continue
            own = ref.methods.get(m["name"])
            out.append((own[0] if own else m, sup, m))
            taken.add(m["name"])
        queue.extend(index.supers(sup))
    return out


def class_mapping(index: ServiceIndex, ref: ClassRef) -> tuple[list[Any] | None, ClassRef]:
    ann = first_mapping(ref.data["anns"]) or _micronaut_controller(ref)
    if ann is not None:
        return ann, ref
    for sup in index.supers(ref):
        ann = first_mapping(sup.data["anns"])
        if ann is not None:
            return ann, sup
    return None, ref


def _micronaut_controller(ref: ClassRef) -> list[Any] | None:
    """Micronaut's ``@Controller("/orders")`` names the route prefix (Spring's names a bean)."""
    ann = ref.ann("Controller")
    if ann is not None and any(i.startswith("io.micronaut") for i in ref.file.get("imports", ())):
        return ann
    return None


def spring_apis(index: ServiceIndex, ref: ClassRef, framework: str) -> list[RawApi]:
    if ref.ann(*CONTROLLER_ANNOTATIONS) is None or ref.data["kind"] == "interface":
        return []
    cls_ann, cls_owner = class_mapping(index, ref)
    prefixes = mapping_paths(index, cls_ann, cls_owner)
    default_methods = mapping_methods(cls_ann, ["ANY"]) if cls_ann is not None else ["ANY"]
    out = []
    for declared, owner, mapped in mapped_methods(index, ref):
        ann = first_mapping(mapped["anns"])
        assert ann is not None
        request = request_fields(index, declared, mapped)
        response = response_fields(index, declared)
        site = ref if declared is not mapped or owner is ref else owner
        for prefix in prefixes:
            for path in mapping_paths(index, ann, owner):
                for verb in mapping_methods(ann, default_methods):
                    out.append(
                        RawApi(
                            method=verb,
                            path=join_path(prefix, path),
                            handler=f"{ref.name}.{declared['name']}",
                            file=site.path,
                            start_line=ann[2] if declared is mapped else declared["line"],
                            end_line=declared["end"],
                            component=ref.name,
                            doc=declared.get("doc") or mapped.get("doc"),
                            framework=framework,
                            request_fields=request,
                            response_fields=response,
                        )
                    )
    return out


def jaxrs_apis(index: ServiceIndex, ref: ClassRef, app_prefix: str) -> list[RawApi]:
    if ref.ann("RegisterRestClient", "FeignClient") is not None:
        return []
    cls_path = mapping_paths(index, ref.ann("Path"), ref)[0] if ref.ann("Path") else ""
    out = []
    for m in ref.data["methods"]:
        verbs = [a[0] for a in m["anns"] if a[0] in JAXRS_METHODS]
        if not verbs:
            continue
        path_ann = next((a for a in m["anns"] if a[0] == "Path"), None)
        path = mapping_paths(index, path_ann, ref)[0] if path_ann else ""
        for verb, verb_line in ((a[0], a[2]) for a in m["anns"] if a[0] in JAXRS_METHODS):
            out.append(
                RawApi(
                    method=verb,
                    path=join_path(app_prefix, cls_path, path),
                    handler=f"{ref.name}.{m['name']}",
                    file=ref.path,
                    start_line=verb_line,
                    end_line=m["end"],
                    component=ref.name,
                    doc=m.get("doc"),
                    framework="jax-rs",
                )
            )
    return out


def grpc_service(ref: ClassRef) -> str | None:
    """``OrderServiceGrpc.OrderServiceImplBase`` / ``OrderServiceGrpcKt.OrderServiceCoroutineImplBase``;
    a Quarkus ``@GrpcService`` class implementing the interface generated for the service (``Orders``)."""
    for sup in ref.data["supers"]:
        name: str = sup[0]
        last = name.rsplit(".", 1)[-1]
        for suffix in ("CoroutineImplBase", "ImplBase"):
            if last.endswith(suffix) and last != suffix:
                return last[: -len(suffix)]
    if _quarkus_grpc_service(ref) and len(ref.data["supers"]) == 1:
        return str(ref.data["supers"][0][0]).rsplit(".", 1)[-1].split("<", 1)[0]
    return None


def _quarkus_grpc_service(ref: ClassRef) -> bool:
    return ref.ann("GrpcService") is not None and any(
        i.startswith(QUARKUS_GRPC) for i in ref.file.get("imports", [])
    )


def grpc_apis(ref: ClassRef, service: str) -> list[RawApi]:
    out = []
    quarkus = _quarkus_grpc_service(ref)
    for m in ref.data["methods"]:
        if m["name"] in _GRPC_SKIP or m["name"] == "<init>":
            continue
        overrides = "override" in m["mods"]
        streams = any("StreamObserver" in p[1] for p in m["params"])
        mutiny = quarkus and str(m.get("ret") or "").split("<", 1)[0] in MUTINY_TYPES
        if not (overrides or streams or mutiny):
            continue
        rpc = m["name"][:1].upper() + m["name"][1:]
        out.append(
            RawApi(
                method="RPC",
                path=f"{service}/{rpc}",
                handler=f"{ref.name}.{m['name']}",
                file=ref.path,
                start_line=m["line"],
                end_line=m["end"],
                kind="grpc",
                component=ref.name,
                doc=m.get("doc"),
                framework="grpc",
            )
        )
    return out


def route_apis(index: ServiceIndex, ref: ClassRef, framework: str) -> list[RawApi]:
    out = []
    for m in ref.data["methods"]:
        for site in m.get("sites", ()):
            if site["k"] != "route":
                continue
            out.append(
                RawApi(
                    method=site["method"],
                    path=join_path(render(index.resolve(site["path"], ref))),
                    handler=site["handler"] or f"{ref.name}.{m['name']}",
                    file=ref.path,
                    start_line=site["line"],
                    end_line=site["end"],
                    component=ref.name,
                    doc=m.get("doc"),
                    framework=framework,
                )
            )
    return out


def message_api(
    ref: ClassRef, m: dict[str, Any], channel: Expr, provider: str, framework: str, line: int
) -> RawApi:
    name = render(channel)
    return RawApi(
        method="CONSUME",
        path=name,
        handler=f"{ref.name}.{m['name']}",
        file=ref.path,
        start_line=line,
        end_line=m["end"],
        kind="message",
        component=ref.name,
        channel=name,
        provider=provider,
        doc=m.get("doc"),
        framework=framework,
    )


def handler_message(
    ref: ClassRef, direction: str, channel: Expr, provider: str, client: str, line: int, end: int, handler: str | None
) -> RawMessage:
    """The message of a method or injection of ``ref`` naming its channel by annotation; only a
    consumer keeps its handler."""
    return RawMessage(
        direction=direction,
        channel=channel,
        provider=provider,
        file=ref.path,
        line=line,
        end_line=max(end, line),
        client=client,
        api_handler=handler if direction == "consumes" else None,
        component=ref.name,
    )
