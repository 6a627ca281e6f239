"""Reverse proxies a Node gateway mounts: each upstream target is an HTTP call from the gateway.

`proxy.web(req, res, { target: "http://orders:3000" })` (http-proxy, the target given per request
or to `createProxyServer({ target })`), `createProxyMiddleware({ target })` (http-proxy-middleware,
also its older default export `proxy("/api", { target })`), `proxy("http://orders:3000")`
(express-http-proxy) and koa-proxies: the request is forwarded whole, so the call names no method
and no path of its own — only the upstream, which the linker resolves to a service like any URL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import object_pairs, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

#: (module, member path) of a proxy factory -> where it names the upstream: an argument's index,
#: or the key of the first options object among its arguments
PROXY_FACTORIES: dict[tuple[str, str], int | str] = {
    ("http-proxy", "createProxyServer"): "target",
    ("http-proxy", "createServer"): "target",
    ("http-proxy", "createProxy"): "target",
    ("http-proxy-middleware", "createProxyMiddleware"): "target",
    ("http-proxy-middleware", "legacyCreateProxyMiddleware"): "target",
    ("http-proxy-middleware", ""): "target",
    ("express-http-proxy", ""): 0,
    ("koa-proxies", ""): "target",
    ("koa2-proxy-middleware", ""): "target",
}
#: http-proxy server methods forwarding one request: (its options argument's index)
PROXY_METHODS = {"web": 2, "ws": 3}
_MODULES = frozenset(module for module, _ in PROXY_FACTORIES)


def _record(ex: Extractor, node: Node, client: str, target: Node) -> None:
    url = fold(target, ex.scope)
    if url:
        record: dict[str, Any] = {"kind": "http", "client": client, "url": url, "method": None}
        ex.out["calls"].append({**record, "grpc_service": None, **ex.where(node)})


def on_factory(ex: Extractor, node: Node, where: tuple[str, str] | None, args: list[Node]) -> bool:
    """A proxy factory call naming its upstream; True when `where` is a proxy factory at all."""
    spec = PROXY_FACTORIES.get(where) if where is not None else None
    if spec is None:
        return False
    if isinstance(spec, int):
        target = args[spec] if len(args) > spec else None
    else:
        options = next((a for a in args if getattr(unwrap(a), "type", None) == "object"), None)
        target = object_pairs(options).get(spec)
    if target is not None:
        _record(ex, node, where[0] if where else "proxy", target)
    return True


def on_forward(ex: Extractor, node: Node, prop: str, args: list[Node]) -> bool:
    """`proxy.web(req, res, { target })` in a file that uses http-proxy."""
    index = PROXY_METHODS.get(prop)
    if index is None or len(args) <= index or not _uses_proxy(ex):
        return False
    target = object_pairs(args[index]).get("target")
    if target is None:
        return False
    _record(ex, node, "http-proxy", target)
    return True


def _uses_proxy(ex: Extractor) -> bool:
    return any(spec in _MODULES for spec, *_ in ex.out["imports"].values())
