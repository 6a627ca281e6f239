"""OpenAPI 3 and Swagger 2 documents as HTTP APIs: one per operation, at the path the service
serves it (the path of the first server URL, or ``basePath``, before the document's path)."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.contracts.documents import text_of
from orbitkb.analysis.facts import RawApi
from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.yamlines import LDict

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
FRAMEWORK = "openapi"
_VARIABLE = re.compile(r"\{([^}]*)\}")


def _server_prefix(root: LDict) -> str:
    """The path part of the first server URL (its ``{variables}`` at their defaults), or Swagger's basePath."""
    base = text_of(root.get("basePath"))
    if base is not None:
        return normalize(base)
    servers = root.get("servers")
    first = servers[0] if isinstance(servers, list) and servers else None
    if not isinstance(first, dict) or text_of(first.get("url")) is None:
        return "/"
    variables: dict[str, Any] = first["variables"] if isinstance(first.get("variables"), dict) else {}

    def default(m: re.Match[str]) -> str:
        spec = variables.get(m.group(1))
        return str(spec.get("default", "")) if isinstance(spec, dict) else ""

    url = _VARIABLE.sub(default, str(first["url"]).strip())
    if "://" in url:
        rest = url.partition("://")[2]
        url = rest[rest.find("/") :] if "/" in rest else "/"
    return normalize(url)


def _summary(op: dict[str, Any]) -> str | None:
    return text_of(op.get("summary")) or text_of(op.get("description"))


def openapi_apis(path: str, root: LDict) -> list[RawApi]:
    """Every operation of an OpenAPI/Swagger document, evidence at its method key."""
    paths = root.get("paths")
    if not isinstance(paths, LDict):
        return []
    prefix = _server_prefix(root)
    out: list[RawApi] = []
    for route, item in paths.items():
        if not isinstance(item, LDict) or not str(route).startswith("/"):
            continue
        full = normalize(prefix + "/" + str(route))
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            line = item.line(method, paths.line(route))
            handler = text_of(op.get("operationId")) or f"{method.upper()} {full}"
            out.append(
                RawApi(method.upper(), full, handler, path, line, line, doc=_summary(op), framework=FRAMEWORK)
            )
    return out
