"""YARP (``Yarp.ReverseProxy``, the .NET reverse proxy) routes from the ``ReverseProxy`` section of
an ASP.NET Core settings file: each route's ``Match.Path`` forwarded to every destination
``Address`` of its cluster (``ClusterId``), once per ``Match.Methods`` entry; the path the callee sees
follows the route's transforms (``PathRemovePrefix``, ``PathPrefix``, ``PathSet``, ``PathPattern``).
``{**catch-all}`` (and ``{*rest}``) is the route's subtree, written ``**``. Routes and clusters are
objects keyed by id (YARP 1.x) or arrays carrying ``RouteId``/``ClusterId`` (previews)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.gateways.route import ConfigRoute, forwarded

SERVER = "yarp"
_CATCH_ALL = re.compile(r"\{\*\*?[^}]*\}")


def is_yarp_config(text: str) -> bool:
    return '"ReverseProxy"' in text and '"Clusters"' in text and ("Destinations" in text)


def _load(text: str) -> Any:
    body = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", body.lstrip("\ufeff")))


def _keyed(node: Any, key: str) -> dict[str, Mapping[str, Any]]:
    """Routes or clusters by id, from an object keyed by id or an array of objects carrying it."""
    if isinstance(node, Mapping):
        return {str(k): v for k, v in node.items() if isinstance(v, Mapping)}
    if isinstance(node, list):
        return {str(v.get(key)): v for v in node if isinstance(v, Mapping) and v.get(key)}
    return {}


def _path(template: str) -> str:
    return normalize(_CATCH_ALL.sub("**", template))


def _downstream(match: str, transforms: Any) -> str:
    """The path the destination sees after the route's path transforms."""
    path = match
    for t in transforms if isinstance(transforms, list) else []:
        if not isinstance(t, Mapping):
            continue
        if isinstance(t.get("PathRemovePrefix"), str):
            prefix = normalize(t["PathRemovePrefix"])
            if path == prefix or path.startswith(prefix + "/"):
                path = normalize(path[len(prefix) :])
        elif isinstance(t.get("PathPrefix"), str):
            path = normalize(normalize(t["PathPrefix"]) + path)
        elif isinstance(t.get("PathSet"), str):
            path = _path(t["PathSet"])
        elif isinstance(t.get("PathPattern"), str):
            path = _path(t["PathPattern"])
    return path


def _line(text: str, route_id: str, fallback: int) -> int:
    found = re.search(r'"' + re.escape(route_id) + r'"\s*:\s*\{', text) or re.search(
        r'"RouteId"\s*:\s*"' + re.escape(route_id) + r'"', text
    )
    return text.count("\n", 0, found.start()) + 1 if found else fallback


def yarp_routes(text: str) -> Iterator[ConfigRoute]:
    try:
        root = _load(text)
    except ValueError:
        return
    proxy = root.get("ReverseProxy") if isinstance(root, Mapping) else None
    if not isinstance(proxy, Mapping):
        return
    clusters = _keyed(proxy.get("Clusters"), "ClusterId")
    section = text.count("\n", 0, max(text.find('"ReverseProxy"'), 0)) + 1
    for route_id, route in _keyed(proxy.get("Routes"), "RouteId").items():
        cluster = clusters.get(str(route.get("ClusterId")))
        raw = route.get("Match")
        match: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        template = match.get("Path")
        if cluster is None or not isinstance(template, str):
            continue
        up = _path(template)
        call_path, note = forwarded(up, _downstream(up, route.get("Transforms")), SERVER)
        methods: list[str | None] = [str(m).upper() for m in match.get("Methods") or []] or [None]
        line = _line(text, route_id, section)
        for dest in _keyed(cluster.get("Destinations"), "Address").values():
            address = dest.get("Address")
            if not isinstance(address, str) or "://" not in address:
                continue
            base = address.rstrip("/")
            for method in methods:
                yield ConfigRoute(base, call_path, line, note, method)
