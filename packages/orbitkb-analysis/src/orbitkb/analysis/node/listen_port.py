"""The port a Node server says it listens on: ``app.listen(process.env.PORT ?? 3002)``.

``listen(3000)``, ``listen(PORT)`` with ``const PORT = process.env.PORT || 3000``, Fastify's
``listen({ port: 4000 })``: the literal port, or the default of the variable it is read from. The
linker states it as the service's ``server.port`` property (one distinct port in the service's own
files; several, or none read, say nothing), so a call to ``http://localhost:3002`` from another
service finds the one service that listens there, as a published port would.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from ..facts import Env, Expr, Lit, Prop
from .resolve import Resolver
from .syntax import object_pairs, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

KEY = "listen_ports"
PROPERTY = "server.port"
_LOWEST, _HIGHEST = 1, 65535


def on_listen(ex: Extractor, args: list[Node]) -> None:
    """`server.listen(port, ...)` / `.listen({ port })`: note the value it names."""
    first = unwrap(args[0]) if args else None
    if first is not None and first.type == "object":
        first = unwrap(object_pairs(first).get("port"))
    parts = fold(first, ex.scope) if first is not None else []
    if parts and parts not in ex.out.setdefault(KEY, []):
        ex.out[KEY].append(parts)


def _port(expr: Expr | None) -> int | None:
    """A port written as a number, or the default of the one env/config read it comes from."""
    if expr is None or len(expr.parts) != 1:
        return None
    part = expr.parts[0]
    value = part.text if isinstance(part, Lit) else part.default if isinstance(part, (Env, Prop)) else None
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdigit() and _LOWEST <= int(text) <= _HIGHEST else None


def properties(files: Mapping[str, dict[str, Any]], library: set[str], resolver: Resolver) -> dict[str, str]:
    """`{"server.port": "3002"}` when the service's own files listen on exactly one port."""
    ports = {
        _port(resolver.expr(path, parts))
        for path, data in files.items()
        if path not in library
        for parts in data.get(KEY, ())
    }
    return {PROPERTY: str(next(iter(ports)))} if len(ports) == 1 and None not in ports else {}
