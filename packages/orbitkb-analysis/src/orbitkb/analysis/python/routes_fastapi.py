"""FastAPI routes: ``@<router>.get/post/.../api_route``, ``add_api_route``, ``include_router``
(prefix composed with the router's own ``APIRouter(prefix=...)``, nested, across modules) and
``mount`` of sub-applications."""

from __future__ import annotations

from orbitkb.analysis.python.ir import EMPTY_NODE, Node, items
from orbitkb.analysis.python.linkctx import LinkState
from orbitkb.analysis.python.routing import (
    PendingRoute,
    PrefixTree,
    decorated_functions,
    function_route,
    ident,
    methods_from,
    split_call,
)
from orbitkb.analysis.python.signatures import HTTP_VERBS

VERBS = {**HTTP_VERBS, "trace": "TRACE"}
ROUTE_METHODS = ("api_route", "route")
FRAMEWORK = "fastapi"
APP_CLASSES = frozenset({"fastapi.FastAPI", "fastapi.applications.FastAPI"})
ROUTER_CLASSES = frozenset({"fastapi.APIRouter", "fastapi.routing.APIRouter"})


def _class_of(o: Node) -> str:
    return o["c"].get("q", "") if o["t"] == "inst" and o["c"]["t"] == "ext" else ""


def is_router(st: LinkState, o: Node) -> bool:
    fam = st.r.family(o)
    if fam is not None:
        return fam == "fastapi"
    # an object we cannot type (a parameter, a re-export we do not see): trust the decorator
    # shape only when FastAPI is what this service uses
    return "fastapi" in st.libs and "flask" not in st.libs and o["t"] not in ("lit", "cat", "dict", "list")


def register(st: LinkState, tree: PrefixTree, o: Node) -> str:
    rid = ident(o)
    if o["t"] == "inst":
        tree.router(rid, o["k"].get("prefix"))
    return rid


def collect(st: LinkState, tree: PrefixTree) -> list[PendingRoute]:
    routes: list[PendingRoute] = []
    kinds: dict[str, str] = {}  # router id -> its FastAPI class, when the code shows it
    unsure = False  # an include or mount whose router the values cannot follow
    for path, qual, info, dec, line in decorated_functions(st):
        fv, args, kw, is_call = split_call(st, dec)
        if not is_call or fv["t"] != "bm" or (fv["n"] not in VERBS and fv["n"] not in ROUTE_METHODS):
            continue
        o = st.r.as_object(fv["o"])
        if not is_router(st, o):
            continue
        path_node = args[0] if args else kw.get("path")
        if path_node is None:
            continue
        methods = [VERBS[fv["n"]]] if fv["n"] in VERBS else methods_from(kw.get("methods"), ["GET"])
        site = (path, line, info["e"])
        kinds[ident(o)] = _class_of(o)
        route = function_route(st, register(st, tree, o), path_node, methods, path, qual, FRAMEWORK, site)
        route.response_model = dec["k"].get("response_model")
        routes.append(route)
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in ("include_router", "mount", "add_api_route"):
            continue
        o = st.r.as_object(c["o"])
        if not is_router(st, o):
            continue
        parent = register(st, tree, o)
        kinds.setdefault(parent, _class_of(o))
        if c["n"] == "include_router":
            for child in items(inv.arg(0, "router")):
                child = st.r.as_object(child)
                unsure = unsure or child["t"] != "inst"
                tree.include(parent, register(st, tree, child), inv.kw.get("prefix", EMPTY_NODE), False)
        elif c["n"] == "mount":
            for child in items(inv.arg(1, "app")):
                if st.r.family(child) == "fastapi":
                    tree.include(parent, register(st, tree, child), inv.arg(0, "path"), False)
        else:
            endpoint = inv.arg(1, "endpoint")
            path_node = inv.arg(0, "path")
            if endpoint is not None and endpoint["t"] == "fn" and path_node is not None:
                methods = methods_from(inv.kw.get("methods"), ["GET"])
                route = function_route(
                    st,
                    parent,
                    path_node,
                    methods,
                    endpoint["p"],
                    endpoint["n"],
                    FRAMEWORK,
                    (inv.path, inv.line, inv.end),
                )
                route.response_model = inv.rec.get("k", {}).get("response_model")
                routes.append(route)
    return routes if unsure else _served(routes, kinds, tree)


def _served(routes: list[PendingRoute], kinds: dict[str, str], tree: PrefixTree) -> list[PendingRoute]:
    """Routes an application serves: an ``APIRouter`` that no application or router includes (a
    module left over, an alternative never wired) serves nothing, once the service has an app and
    every include in it was followed."""
    if not any(k in APP_CLASSES for k in kinds.values()):
        return routes
    dead = {rid for rid, k in kinds.items() if k in ROUTER_CLASSES and rid not in tree.edges}
    return [r for r in routes if r.router not in dead]
