"""Kubernetes Ingress rules: the path prefixes an ingress controller forwards to each Service.

``- path: /api/orders/?(.*)`` with ``backend: {serviceName: orders-srv}`` (extensions/v1beta1) or
``backend: {service: {name: orders-srv}}`` (networking.k8s.io/v1): a request that reaches the
ingress — a relative URL from a page the ingress serves, or the controller's own host — goes to the
Service whose prefix is the longest one of the request's path. The catch-all (``/``, ``/?(.*)``)
serves the pages themselves and is never a call's target.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from attrs import frozen

from orbitkb.analysis.yamlines import LDict

# the regex or glob tail of an ingress path: `/?(.*)`, `(/|$)(.*)`, `/*`, `.*`
_TAIL = re.compile(r"(?:/?\??\(/\|\$\))?/?\??(?:\(\.\*\)|\.\*|\*)?$")


@frozen
class IngressRoute:
    prefix: str  # "/api/orders"; "" for the catch-all
    service: str  # the backend Service's name
    host: str | None  # the rule's host, when it names one
    file: str
    line: int


def prefix_of(path: str) -> str:
    """``/api/users/?(.*)`` -> ``/api/users``; ``/``, ``/?(.*)``, ``/(.*)`` -> ``""`` (everything)."""
    return _TAIL.sub("", path.strip()).rstrip("/")


def ingress_routes(doc: LDict, file: str, fix: Callable[[int], int] = lambda n: n) -> list[IngressRoute]:
    """The (path prefix, Service) routes of one Ingress document."""
    spec = doc.get("spec")
    out: list[IngressRoute] = []
    for rule in (spec.get("rules") or []) if isinstance(spec, LDict) else []:
        if not isinstance(rule, LDict) or not isinstance(rule.get("http"), LDict):
            continue
        host = str(rule["host"]) if rule.get("host") else None
        for item in rule["http"].get("paths") or []:
            if not isinstance(item, LDict) or not isinstance(item.get("backend"), LDict):
                continue
            service = _backend_service(item["backend"])
            if service:
                path = str(item.get("path") or "/")
                out.append(IngressRoute(prefix_of(path), service, host, file, fix(item.line("path", 1))))
    return out


def route_for(routes: Sequence[IngressRoute], path: str | None) -> IngressRoute | None:
    """The route whose prefix is the longest one of ``path`` (segment-wise); never the catch-all."""
    if not path or not path.startswith("/"):
        return None
    found = [r for r in routes if r.prefix and (path == r.prefix or path.startswith(r.prefix + "/"))]
    return max(found, key=lambda r: (len(r.prefix), r.file, r.line), default=None)


def _backend_service(backend: LDict) -> str | None:
    name = backend.get("serviceName")  # extensions/v1beta1
    service = backend.get("service")  # networking.k8s.io/v1
    if not name and isinstance(service, LDict):
        name = service.get("name")
    return str(name) if name else None
