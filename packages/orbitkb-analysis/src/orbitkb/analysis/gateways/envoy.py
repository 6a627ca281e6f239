"""Envoy route configurations as gateway routes: ``virtual_hosts`` routes (in ``static_resources``
listeners or a standalone RDS file) to ``clusters`` and the addresses of their endpoints.

A ``prefix`` match forwards everything below it; ``prefix_rewrite`` replaces the matched prefix
and ``regex_rewrite`` is applied to the pattern; a ``safe_regex`` match is kept as written. A route
forwards gRPC when it matches on ``grpc``, or when its cluster speaks HTTP/2 behind a gRPC filter
(``grpc_web``, ``grpc_json_transcoder``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.gateways.route import ConfigRoute, forwarded, prefix_pattern
from orbitkb.analysis.yamlines import LDict, LList

SERVER = "envoy"


def is_envoy_config(text: str) -> bool:
    return "virtual_hosts" in text and ("routes" in text) and ("cluster" in text)


def _walk(node: Any, key: str) -> Iterator[Any]:
    """Every value stored under ``key`` anywhere in the document."""
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from _walk(v, key)
    elif isinstance(node, list):
        for item in node:
            yield from _walk(item, key)


def _socket(node: Any) -> str | None:
    sock = node.get("socket_address") if isinstance(node, dict) else None
    if not isinstance(sock, dict) or not sock.get("address"):
        return None
    port = sock.get("port_value")
    return f"{sock['address']}:{port}" if port is not None else str(sock["address"])


def clusters(root: Any) -> dict[str, list[str]]:
    """Cluster name -> host:port of each endpoint (v3 ``load_assignment`` and v2 ``hosts``)."""
    out: dict[str, list[str]] = {}
    for found in _walk(root, "clusters"):
        for cluster in found if isinstance(found, list) else []:
            if not isinstance(cluster, dict) or not isinstance(cluster.get("name"), str):
                continue
            addresses = [a for a in (_socket(x) for x in _walk(cluster, "address")) if a]
            addresses += [a for hosts in _walk(cluster, "hosts") for a in (_socket(h) for h in hosts or []) if a]
            out.setdefault(cluster["name"], []).extend(dict.fromkeys(addresses))
    return out


def _targets(action: dict[str, Any]) -> list[str]:
    if isinstance(action.get("cluster"), str):
        return [action["cluster"]]
    weighted = action.get("weighted_clusters")
    names = weighted.get("clusters") if isinstance(weighted, dict) else None
    return [c["name"] for c in names or [] if isinstance(c, dict) and isinstance(c.get("name"), str)]


def _call_path(match: dict[str, Any], action: dict[str, Any]) -> tuple[str | None, str | None]:
    rewrite = action.get("prefix_rewrite")
    if isinstance(match.get("prefix"), str) or isinstance(match.get("path_separated_prefix"), str):
        prefix = str(match.get("prefix", match.get("path_separated_prefix")))
        pattern = prefix_pattern(prefix)
        if isinstance(rewrite, str):
            return forwarded(pattern, prefix_pattern(rewrite), "prefix")
        regex = action.get("regex_rewrite")
        if isinstance(regex, dict) and isinstance(regex.get("pattern"), dict):
            try:
                down = re.sub(str(regex["pattern"].get("regex", "")), str(regex.get("substitution", "")), prefix)
            except (re.error, IndexError):
                return pattern, None
            return forwarded(pattern, prefix_pattern(down), "regex_rewrite")
        return pattern, None
    if isinstance(match.get("path"), str):
        path = normalize(match["path"])
        return forwarded(path, normalize(rewrite), "path") if isinstance(rewrite, str) else (path, None)
    regex = match.get("safe_regex")
    if isinstance(regex, dict) and isinstance(regex.get("regex"), str):
        return regex["regex"], None
    return None, None


def _method(match: dict[str, Any]) -> str | None:
    for header in match.get("headers") or []:
        if isinstance(header, dict) and header.get("name") == ":method":
            exact = header.get("exact_match") or (header.get("string_match") or {}).get("exact")
            return str(exact).upper() if exact else None
    return None


def _http2_clusters(root: Any) -> set[str]:
    out = set()
    for found in _walk(root, "clusters"):
        for cluster in found if isinstance(found, list) else []:
            if isinstance(cluster, dict) and isinstance(cluster.get("name"), str):
                if any(True for _ in _walk(cluster, "http2_protocol_options")):
                    out.add(cluster["name"])
    return out


def _grpc_filters(root: Any) -> bool:
    return any(
        "grpc" in str(f.get("name", ""))
        for filters in _walk(root, "http_filters")
        for f in (filters if isinstance(filters, list) else [])
        if isinstance(f, dict)
    )


def envoy_routes(root: Any) -> Iterator[ConfigRoute]:
    by_cluster = clusters(root)
    http2 = _http2_clusters(root) if _grpc_filters(root) else set()
    for hosts in _walk(root, "virtual_hosts"):
        for host in hosts if isinstance(hosts, list) else []:
            routes = host.get("routes") if isinstance(host, dict) else None
            if not isinstance(routes, LList):
                continue
            for i, route in enumerate(routes):
                if not isinstance(route, LDict) or not isinstance(route.get("route"), dict):
                    continue
                match: dict[str, Any] = route["match"] if isinstance(route.get("match"), dict) else {}
                action = route["route"]
                call_path, note = _call_path(match, action)
                for cluster in _targets(action):
                    kind = "grpc" if "grpc" in match or cluster in http2 else "http"
                    for address in by_cluster.get(cluster, []):
                        yield ConfigRoute(f"http://{address}", call_path, routes.line(i), note, _method(match), kind)
