"""Litestar routes: handler decorators (``@get("/x")``, ``@post``, ``@route(http_method=...,
path=...)``) on functions and on ``Controller`` methods (the class's ``path`` prefixes them),
registered through ``Router(path=..., route_handlers=[...])`` and ``Litestar(route_handlers=[...])``
(nested routers composed)."""

from __future__ import annotations

from orbitkb.analysis.python.ir import Node, describe, items
from orbitkb.analysis.python.linkctx import LinkState
from orbitkb.analysis.python.routing import (
    EMPTY,
    PendingRoute,
    PrefixTree,
    decorated_functions,
    function_route,
    ident,
    split_call,
)

FRAMEWORK = "litestar"
_PACKAGES = ("litestar.", "litestar.handlers.", "starlite.")
#: decorator name -> the method it serves (``route`` reads ``http_method``)
_VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE", "head": "HEAD"}
_ROUTERS = frozenset({"litestar.Router", "litestar.router.Router", "starlite.Router"})
_APPS = frozenset({"litestar.Litestar", "litestar.app.Litestar", "starlite.Starlite"})
_CONTROLLERS = frozenset({"litestar.Controller", "litestar.controller.Controller", "starlite.Controller"})


def _decorator(fv: Node) -> str | None:
    """``get``/``post``/.../``route`` when ``fv`` is Litestar's handler decorator."""
    if fv["t"] != "ext":
        return None
    q: str = fv["q"]
    for pkg in _PACKAGES:
        name = q.removeprefix(pkg)
        if name != q and (name in _VERBS or name == "route"):
            return name
    return None


def _methods(name: str, kw: dict[str, Node]) -> list[str]:
    if name in _VERBS:
        return [_VERBS[name]]
    found = [describe(m).rsplit(".", 1)[-1].upper() for m in items(kw.get("http_method"))]
    return sorted({m for m in found if m.isalpha()}) or ["ANY"]


def _controller(st: LinkState, path: str, cls: str) -> Node | None:
    """The class node of a ``Controller`` subclass, else None."""
    node: Node = {"t": "cls", "p": path, "n": cls}
    return node if st.r.ancestors(node)[1] & _CONTROLLERS else None


def collect(st: LinkState, tree: PrefixTree) -> list[PendingRoute]:
    routes: list[PendingRoute] = []
    for path, qual, info, dec, line in decorated_functions(st):
        fv, args, kw, is_call = split_call(st, dec)
        name = _decorator(fv)
        if name is None:
            continue
        owner: Node = {"t": "fn", "p": path, "n": qual}
        cls = info.get("c")
        if cls:
            ctl = _controller(st, path, cls)
            if ctl is None:
                continue
            owner = ctl
            tree.router(ident(owner), st.r.class_attr(ctl, "path", None))
        rid = ident(owner)
        paths = items(args[0] if args else kw.get("path")) or [EMPTY]
        for p in paths:
            site = (path, line, info["e"])
            routes.append(function_route(st, rid, p, _methods(name, kw), path, qual, FRAMEWORK, site))
    if routes:
        _registrations(st, tree)
    return routes


def _registrations(st: LinkState, tree: PrefixTree) -> None:
    """The app's ``route_handlers`` and the routers in them (``Router(path, route_handlers=[...])``,
    nested): the prefix each handler and controller is served under."""
    for inv in st.invs:
        c = inv.callee
        if c["t"] == "ext" and c["q"] in _APPS:
            _include(st, tree, f"{inv.path}:{inv.line}", inv.kw.get("route_handlers"), 0)


def _include(st: LinkState, tree: PrefixTree, parent: str, handlers: Node | None, depth: int) -> None:
    for child in items(handlers):
        rid = ident(child)
        tree.include(parent, rid, None, False)
        if depth < 8 and child["t"] == "inst" and child["c"]["t"] == "ext" and child["c"]["q"] in _ROUTERS:
            tree.router(rid, child["a"][0] if child["a"] else child["k"].get("path"))
            _include(st, tree, rid, child["k"].get("route_handlers"), depth + 1)
