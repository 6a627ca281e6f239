"""Flask routes (and Quart's, Sanic's): ``@app.route(methods=...)``, ``@bp.get``, Blueprint
``url_prefix`` and ``register_blueprint(bp, url_prefix=...)`` / Sanic's ``app.blueprint(bp)``
(which overrides it, nested blueprints composed), Sanic's ``add_route(handler, uri)``,
``add_url_rule`` with functions or ``MethodView.as_view``, class routes (flask-smorest
``@blp.route`` on a MethodView, flask-restx ``@ns.route`` on a Resource) and restx/restful
``Api.add_resource`` / ``add_namespace``."""

from __future__ import annotations

from orbitkb.analysis.python.ir import Node, items, lit, literal
from orbitkb.analysis.python.linkctx import Inv, LinkState
from orbitkb.analysis.python.routing import (
    PendingRoute,
    PrefixTree,
    class_routes,
    decorated_classes,
    decorated_functions,
    function_route,
    ident,
    methods_from,
    split_call,
)
from orbitkb.analysis.python.signatures import HTTP_VERBS

FAMILIES = ("flask", "restx-ns", "restx-api")
FRAMEWORK = "flask"


def is_router(st: LinkState, o: Node) -> bool:
    fam = st.r.family(o)
    if fam is not None:
        return fam in FAMILIES
    return "flask" in st.libs and "fastapi" not in st.libs and o["t"] not in ("lit", "cat", "dict", "list")


def framework(o: Node) -> str:
    """The framework a Flask-like router belongs to (Sanic's apps and blueprints are its own)."""
    q = o["c"].get("q", "") if o["t"] == "inst" and o["c"]["t"] == "ext" else ""
    return "sanic" if q.startswith("sanic.") else FRAMEWORK


def register(st: LinkState, tree: PrefixTree, o: Node) -> str:
    rid = ident(o)
    if o["t"] != "inst":
        return rid
    fam = st.r.family(o)
    if fam == "restx-ns":
        name = literal(o["a"][0]) if o["a"] else literal(o["k"].get("name"))
        tree.router(rid, o["k"].get("path") or (lit("/" + name) if name else None))
    elif fam == "restx-api":
        tree.router(rid, o["k"].get("prefix"))
        parent = o["a"][0] if o["a"] else o["k"].get("app")
        if parent is not None and parent["t"] == "inst":
            tree.include(register(st, tree, parent), rid, None, False)
    else:
        tree.router(rid, o["k"].get("url_prefix"))
    return rid


def _view_class(st: LinkState, view: Node | None) -> Node | None:
    """The class behind ``MyView.as_view("name")``."""
    if view is None:
        return None
    if view["t"] == "ret" and view["f"]["t"] == "bm" and view["f"]["n"] == "as_view":
        cls = view["f"]["o"]
        return cls if cls["t"] == "cls" else None
    return view if view["t"] == "cls" else None


def collect(st: LinkState, tree: PrefixTree) -> list[PendingRoute]:
    routes: list[PendingRoute] = []
    for path, qual, info, dec, line in decorated_functions(st):
        fv, args, kw, is_call = split_call(st, dec)
        if not is_call or fv["t"] != "bm" or (fv["n"] != "route" and fv["n"] not in HTTP_VERBS):
            continue
        o = st.r.as_object(fv["o"])
        if not is_router(st, o) or not (args or "rule" in kw):
            continue
        methods = [HTTP_VERBS[fv["n"]]] if fv["n"] in HTTP_VERBS else methods_from(kw.get("methods"), ["GET"])
        rule = args[0] if args else kw["rule"]
        site = (path, line, info["e"])
        routes.append(function_route(st, register(st, tree, o), rule, methods, path, qual, framework(o), site))
    for path, qual, info, dec, line in decorated_classes(st):
        fv, args, kw, is_call = split_call(st, dec)
        if not is_call or fv["t"] != "bm" or fv["n"] != "route" or not args:
            continue
        o = st.r.as_object(fv["o"])
        if is_router(st, o):
            rid = register(st, tree, o)
            for rule in args[:4]:
                routes.extend(
                    class_routes(st, rid, rule, path, qual, FRAMEWORK, None, (path, line, info["e"]))
                )
    for inv in st.invs:
        c = inv.callee
        if c["t"] != "bm" or c["n"] not in (
            "register_blueprint",
            "add_url_rule",
            "add_resource",
            "add_namespace",
            "blueprint",
            "add_route",
        ):
            continue
        o = st.r.as_object(c["o"])
        if not is_router(st, o) or (c["n"] in ("blueprint", "add_route") and framework(o) != "sanic"):
            continue
        parent = register(st, tree, o)
        if c["n"] == "add_route":
            routes.extend(_sanic_route(st, parent, inv))
        elif c["n"] in ("register_blueprint", "add_namespace", "blueprint"):
            prefix = inv.kw.get("path") if c["n"] == "add_namespace" else inv.kw.get("url_prefix")
            for child in items(inv.arg(0, "blueprint", "ns")):
                if child["t"] == "inst":
                    tree.include(parent, register(st, tree, child), prefix, True)
        elif c["n"] == "add_url_rule":
            routes.extend(_url_rule(st, parent, inv))
        else:
            cls = inv.arg(0, "resource")
            if cls is not None and cls["t"] == "cls":
                for rule in inv.args[1:] or items(inv.kw.get("urls")):
                    site = (inv.path, inv.line, inv.end)
                    routes.extend(class_routes(st, parent, rule, cls["p"], cls["n"], FRAMEWORK, None, site))
    return routes


def _sanic_route(st: LinkState, parent: str, inv: Inv) -> list[PendingRoute]:
    """Sanic ``app.add_route(handler, uri, methods=[...])``; a ``HTTPMethodView.as_view()`` serves
    the verbs its class defines."""
    handler, uri = inv.arg(0, "handler"), inv.arg(1, "uri")
    if handler is None or uri is None:
        return []
    site = (inv.path, inv.line, inv.end)
    if handler["t"] == "fn":
        methods = methods_from(inv.kw.get("methods"), ["GET"])
        return [function_route(st, parent, uri, methods, handler["p"], handler["n"], "sanic", site)]
    cls = _view_class(st, handler)
    return class_routes(st, parent, uri, cls["p"], cls["n"], "sanic", None, site) if cls is not None else []


def _url_rule(st: LinkState, parent: str, inv: Inv) -> list[PendingRoute]:
    rule = inv.arg(0, "rule")
    view = inv.arg(2, "view_func")
    if rule is None or view is None:
        return []
    explicit = methods_from(inv.kw.get("methods"), [])
    site = (inv.path, inv.line, inv.end)
    if view["t"] == "fn":
        return [function_route(st, parent, rule, explicit or ["GET"], view["p"], view["n"], FRAMEWORK, site)]
    cls = _view_class(st, view)
    if cls is None:
        return []
    found = class_routes(st, parent, rule, cls["p"], cls["n"], FRAMEWORK, explicit or None, site)
    if found:
        return found
    # a plain View: dispatch_request serves the methods it declares
    info = st.files[cls["p"]]["classes"][cls["n"]]
    declared = methods_from(
        st.r.ev(info["attrs"]["methods"]) if "methods" in info["attrs"] else None, ["GET"]
    )
    qual = f"{cls['n']}.dispatch_request"
    if qual not in st.files[cls["p"]]["funcs"]:
        return []
    return [function_route(st, parent, rule, explicit or declared, cls["p"], qual, FRAMEWORK, site)]
