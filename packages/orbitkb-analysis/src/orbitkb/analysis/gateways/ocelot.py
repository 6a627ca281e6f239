"""Ocelot (.NET API gateway) route configuration (``ocelot.json``, ``ocelot.<Environment>.json``)
as gateway routes: each route's ``DownstreamHostAndPorts`` + ``DownstreamPathTemplate``, once per
upstream HTTP method; a route with a ``ServiceName`` and no hosts is resolved by service discovery
(Consul, Eureka), so it goes to the service registered under that name. Ocelot files are JSON with
``//`` comments, read with those removed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.gateways.route import ConfigRoute, forwarded

SERVER = "ocelot"
_PLACEHOLDER = re.compile(r"\{(?:everything|[\w]+)\}$")


def is_ocelot_config(text: str) -> bool:
    return "DownstreamPathTemplate" in text or ('"Routes"' in text and "UpstreamPathTemplate" in text)


def _load(text: str) -> Any:
    body = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", body.lstrip("\ufeff")))


def _lines(text: str) -> list[int]:
    """The line of each route object, in order (each holds one ``DownstreamPathTemplate``)."""
    return [text.count("\n", 0, m.start()) + 1 for m in re.finditer(r'"DownstreamPathTemplate"', text)]


def ocelot_routes(text: str) -> Iterator[ConfigRoute]:
    try:
        root = _load(text)
    except ValueError:
        return
    routes = (root.get("Routes") or root.get("ReRoutes") or []) if isinstance(root, dict) else []
    lines = _lines(text)
    for i, route in enumerate(r for r in routes if isinstance(r, dict)):
        down = route.get("DownstreamPathTemplate")
        hosts = [
            h for h in route.get("DownstreamHostAndPorts") or [] if isinstance(h, dict) and h.get("Host")
        ]
        discovered = route.get("ServiceName")
        if not hosts and isinstance(discovered, str) and discovered.strip():
            hosts = [{"Host": discovered.strip()}]  # the name the service registers with discovery
        if not isinstance(down, str) or not hosts:
            continue
        scheme = (
            "https" if str(route.get("DownstreamScheme") or "http").lower() in ("https", "wss") else "http"
        )
        up = str(route.get("UpstreamPathTemplate") or down)
        call_path, note = forwarded(normalize(up), normalize(down), "ocelot")
        methods: list[str | None] = [str(m).upper() for m in route.get("UpstreamHttpMethod") or []] or [None]
        line = lines[i] if i < len(lines) else 1
        for host in hosts:
            port = host.get("Port")
            address = f"{scheme}://{host['Host']}" + (f":{port}" if port not in (None, "") else "")
            for method in methods:
                yield ConfigRoute(address, call_path, line, note, method)
