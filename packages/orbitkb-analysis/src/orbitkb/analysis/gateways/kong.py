"""Kong declarative configuration (``_format_version``, ``kong.yml``) as gateway routes: each
route's paths to its service's URL, upstream targets expanded.

Kong strips the matched path by default (``strip_path: true``): the callee sees the service's own
path followed by the rest of the request; with ``strip_path: false`` the request path is appended.
A regex path (``~/x/\\d+``) is kept as written.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.gateways.route import ConfigRoute, forwarded, prefix_pattern
from orbitkb.analysis.yamlines import LDict, LList

SERVER = "kong"


def is_kong_config(text: str) -> bool:
    return "_format_version" in text and ("services" in text or "routes" in text)


def _service_url(service: dict[str, Any]) -> tuple[str, str, str] | None:
    """(scheme, host[:port], path) of a service's ``url`` or its protocol/host/port/path fields."""
    url = service.get("url")
    if isinstance(url, str) and "://" in url:
        scheme, _, rest = url.partition("://")
        host, slash, path = rest.partition("/")
        return scheme, host, "/" + path if slash else "/"
    bare = service.get("host")
    if not isinstance(bare, str):
        return None
    port = service.get("port")
    return (
        str(service.get("protocol") or "http"),
        f"{bare}:{port}" if port is not None else bare,
        str(service.get("path") or "/"),
    )


def _upstreams(root: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for upstream in root.get("upstreams") or []:
        if isinstance(upstream, dict) and isinstance(upstream.get("name"), str):
            targets = [t.get("target") for t in upstream.get("targets") or [] if isinstance(t, dict)]
            out[upstream["name"]] = [str(t) for t in targets if t]
    return out


def _route_calls(route: LDict, line: int, service: dict[str, Any], upstreams: dict[str, list[str]]) -> Iterator[ConfigRoute]:
    found = _service_url(service)
    if found is None:
        return
    scheme, host, base = found
    name = host.split(":", 1)[0]
    hosts = upstreams.get(name) or [host]
    methods = [str(m).upper() for m in route.get("methods") or []]
    strip = route.get("strip_path", True) is not False
    paths = [str(p) for p in route.get("paths") or []] or ["/"]
    scheme = "https" if scheme == "https" else "http"  # grpc(s) upstreams are reached the same way
    for path in paths:
        if path.startswith("~"):
            call_path, note = path[1:], None
        else:
            pattern = prefix_pattern(path)
            down = prefix_pattern(base) if strip else prefix_pattern(normalize(base + "/" + path))
            call_path, note = forwarded(pattern, down, "strip_path" if strip else "path")
        for target in hosts:
            yield ConfigRoute(f"{scheme}://{target}", call_path, line, note, methods[0] if len(methods) == 1 else None)


def kong_routes(root: Any) -> Iterator[ConfigRoute]:
    if not isinstance(root, dict):
        return
    upstreams = _upstreams(root)
    services: LList = root["services"] if isinstance(root.get("services"), LList) else LList()
    by_name = {s["name"]: s for s in services if isinstance(s, dict) and isinstance(s.get("name"), str)}
    for service in services:
        routes = service.get("routes") if isinstance(service, dict) else None
        if not isinstance(routes, LList):
            continue
        for i, route in enumerate(routes):
            if isinstance(route, LDict):
                yield from _route_calls(route, routes.line(i), service, upstreams)
    top = root.get("routes")
    if not isinstance(top, LList):
        return
    for i, route in enumerate(top):
        ref = route.get("service") if isinstance(route, LDict) else None
        name = ref.get("name") if isinstance(ref, dict) else ref
        if isinstance(route, LDict) and name in by_name:
            yield from _route_calls(route, top.line(i), by_name[name], upstreams)
