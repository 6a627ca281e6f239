"""One route read from a gateway's declarative config (Envoy, Kong, Traefik), before it becomes a
``RouteCall`` from the gateway: where it forwards, the path the callee sees, where it was written."""

from __future__ import annotations

from attrs import frozen

from orbitkb.analysis.gateways.paths import normalize


@frozen
class ConfigRoute:
    url: str  # the upstream address: http://host:port[/path]
    path: str | None  # the path the callee sees (``/x/**`` for a prefix route)
    line: int
    note: str | None = None  # how the gateway rewrote the path, when it did
    method: str | None = None  # a route limited to one HTTP method
    kind: str = "http"  # grpc when the gateway forwards gRPC


def prefix_pattern(prefix: str) -> str:
    """``/orders/`` -> ``/orders/**``: a prefix route forwards everything below it."""
    return normalize(prefix.rstrip("/") + "/**")


def forwarded(match: str, down: str, how: str) -> tuple[str, str | None]:
    """(call path, note): the note says how ``match`` was rewritten, when it was."""
    return (down, None) if down == match else (down, f"{how} {match} forwarded as {down}")
