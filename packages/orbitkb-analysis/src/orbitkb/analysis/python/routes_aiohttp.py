"""aiohttp routes: ``app.router.add_get/add_post/.../add_route/add_view``, ``app.add_routes([web.get(...),
...])``, ``web.RouteTableDef`` decorators (``@routes.get``, ``@routes.view`` on a ``web.View``) and
``add_subapp(prefix, sub)`` prefixes. The router is recognised by its construction, or — for an
``app`` received as a parameter — by the aiohttp-only method names in a service importing aiohttp."""

from __future__ import annotations

from orbitkb.analysis.python.ir import Node, describe, items, literal
from orbitkb.analysis.python.linkctx import Inv, LinkState
from orbitkb.analysis.python.routing import (
    PendingRoute,
    PrefixTree,
    class_routes,
    decorated_classes,
    decorated_functions,
    function_route,
    ident,
    split_call,
)
from orbitkb.analysis.python.signatures import HTTP_VERBS

FRAMEWORK = "aiohttp"
_ADD = {f"add_{v}": m for v, m in HTTP_VERBS.items()}  # router.add_get(path, handler)
_DEFS = {f"aiohttp.web.{v}": m for v, m in HTTP_VERBS.items()}  # web.get(path, handler)
_TABLE = {**HTTP_VERBS, "route": None, "view": None}  # @routes.get(path) / .route(method, path)


def _app_rid(st: LinkState, o: Node) -> str:
    """The router id of ``app`` / ``app.router``."""
    if o["t"] == "bm" and o["n"] == "router":
        o = st.r.as_object(o["o"])
    return ident(o)


def _method(node: Node | None) -> str:
    m = (literal(node) or "").upper()
    return "ANY" if m in ("*", "") else m


def _target(
    st: LinkState,
    rid: str,
    path: Node | None,
    method: str | None,
    handler: Node | None,
    site: tuple[str, int, int],
) -> list[PendingRoute]:
    """Routes for a handler function (any method) or a class-based view (the methods it defines)."""
    if handler is None or path is None or path["t"] == "none":
        return []
    if handler["t"] == "fn":
        return [function_route(st, rid, path, [method or "ANY"], handler["p"], handler["n"], FRAMEWORK, site)]
    if handler["t"] == "cls":
        only = [method] if method and method != "ANY" else None
        return class_routes(st, rid, path, handler["p"], handler["n"], FRAMEWORK, only, site)
    return []


def collect(st: LinkState, tree: PrefixTree) -> list[PendingRoute]:
    if "aiohttp" not in st.libs:
        return []
    routes: list[PendingRoute] = []
    owner: dict[tuple[str, int], str] = {}  # (file, line) of a web.get(...) -> app it is added to
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm":
            continue
        site = (inv.path, inv.line, inv.end)
        if c["n"] in _ADD or c["n"] in ("add_route", "add_view"):
            if not (c["o"]["t"] == "bm" and c["o"]["n"] == "router"):
                continue
            rid = _app_rid(st, c["o"])
            if c["n"] == "add_route":
                method = _method(inv.arg(0, "method"))
                routes += _target(st, rid, inv.arg(1, "path"), method, inv.arg(2, "handler"), site)
            elif c["n"] == "add_view":
                routes += _target(st, rid, inv.arg(0, "path"), None, inv.arg(1, "handler"), site)
            else:
                routes += _target(st, rid, inv.arg(0, "path"), _ADD[c["n"]], inv.arg(1, "handler"), site)
        elif c["n"] == "add_routes":
            rid = _app_rid(st, st.r.as_object(c["o"]))
            for r in items(inv.arg(0, "routes")):
                if r["t"] == "inst" and r["c"]["t"] == "ext" and r["c"]["q"] == "aiohttp.web.RouteTableDef":
                    tree.include(rid, ident(r), None, False)
            _owners(st, inv, rid, owner)
        elif c["n"] == "add_subapp":
            sub = inv.arg(1, "subapp")
            if sub is None:
                continue
            tree.include(
                _app_rid(st, st.r.as_object(c["o"])), ident(st.r.as_object(sub)), inv.arg(0, "prefix"), False
            )
    for inv in st.invs:
        c = inv.callee
        q = c["q"] if c["t"] == "ext" else ""
        if q in _DEFS or q in ("aiohttp.web.route", "aiohttp.web.view"):
            rid = owner.get((inv.path, inv.line), "aiohttp")
            site = (inv.path, inv.line, inv.end)
            if q == "aiohttp.web.route":
                routes += _target(
                    st, rid, inv.arg(1, "path"), _method(inv.arg(0, "method")), inv.arg(2, "handler"), site
                )
            elif q == "aiohttp.web.view":
                routes += _target(st, rid, inv.arg(0, "path"), None, inv.arg(1, "handler"), site)
            else:
                routes += _target(st, rid, inv.arg(0, "path"), _DEFS[q], inv.arg(1, "handler"), site)
    routes += _table_routes(st)
    return routes


def _owners(st: LinkState, inv: Inv, rid: str, owner: dict[tuple[str, int], str]) -> None:
    """Remember which app a list of ``web.get(...)`` definitions is added to (by their lines)."""
    raw = inv.rec.get("a", [])
    lines = range(inv.line, inv.end + 1)
    if raw and raw[0].get("t") == "list":
        for line in lines:
            owner.setdefault((inv.path, line), rid)


def _table_routes(st: LinkState) -> list[PendingRoute]:
    out: list[PendingRoute] = []
    decorated = [("fn", *d) for d in decorated_functions(st)] + [("cls", *d) for d in decorated_classes(st)]
    for kind, path, qual, info, dec, line in decorated:
        fv, args, kw, is_call = split_call(st, dec)
        if not is_call or fv["t"] != "bm" or fv["n"] not in _TABLE:
            continue
        table = st.r.as_object(fv["o"])
        if not (table["t"] == "inst" and describe(table["c"]) == "aiohttp.web.RouteTableDef"):
            continue
        rid, site = ident(table), (path, line, info["e"])
        if fv["n"] == "route":
            method: str | None = _method(args[0] if args else kw.get("method"))
            route_path = args[1] if len(args) > 1 else kw.get("path")
        else:
            method = HTTP_VERBS.get(fv["n"])
            route_path = args[0] if args else kw.get("path")
        if route_path is None:
            continue
        handler: Node = {"t": kind, "p": path, "n": qual}
        out += _target(st, rid, route_path, method, handler, site)
    return out
