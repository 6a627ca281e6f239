"""Shared route machinery: the router prefix tree, decorated definitions, and route emission.

Routers (FastAPI apps/APIRouters, Flask apps/blueprints, restx namespaces) are identified by the
``id`` of the instance (``module.name`` or ``module.func:local``), so a router created in one
module, decorated in a second and included in a third is one node of the tree.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from attrs import define

from orbitkb.analysis.python.ir import Node, cat, describe, items, lit, literal
from orbitkb.analysis.python.linkctx import LinkState, normalize_path, render_path, to_expr

EMPTY = lit("")
HTTP_METHOD_NAMES = ("get", "post", "put", "patch", "delete", "head", "options")


def ident(o: Node) -> str:
    return o.get("id") or describe(o)


class PrefixTree:
    def __init__(self) -> None:
        self.own: dict[str, Node] = {}
        self.edges: dict[str, list[tuple[str, Node | None, bool]]] = defaultdict(list)

    def router(self, rid: str, own: Node | None) -> None:
        if own is not None and own["t"] != "none":
            self.own.setdefault(rid, own)

    def include(self, parent: str, child: str, prefix: Node | None, override: bool) -> None:
        edge = (parent, None if prefix is None or prefix["t"] == "none" else prefix, override)
        if edge not in self.edges[child]:
            self.edges[child].append(edge)

    def prefixes(self, rid: str, seen: tuple[str, ...] = ()) -> list[Node]:
        own = self.own.get(rid, EMPTY)
        edges = self.edges.get(rid)
        if not edges or len(seen) > 12 or rid in seen:
            return [own]
        out: list[Node] = []
        for parent, inc, override in edges:
            mine = own if inc is None else inc if override else cat([inc, own])
            for pp in self.prefixes(parent, (*seen, rid)):
                node = cat([pp, mine])
                if node not in out:
                    out.append(node)
        return out


Site = tuple[str, int, int]  # (file, start line, end line) where a route is bound


@define
class PendingRoute:
    router: str
    path: Node
    methods: list[str]
    file: str  # where the path is bound to the handler (decorator, add_url_rule, path(...))
    qual: str | None  # implementing function (for attribution and docstring)
    handler: str
    start: int
    end: int
    component: str
    component_file: str
    framework: str
    doc: str | None = None
    handler_file: str = ""
    response_model: Node | None = None  # FastAPI ``response_model=`` as written (unevaluated)


def decorated_functions(st: LinkState) -> Iterator[tuple[str, str, dict[str, Any], Node, int]]:
    """(file, qualname, info, decorator node, decorator line) for every function decorator."""
    for path in sorted(st.files):
        for qual, info in st.files[path]["funcs"].items():
            lines = info.get("dln") or [info["l"]] * len(info["dec"])
            for dec, line in zip(info["dec"], lines):
                yield path, qual, info, dec, line


def decorated_classes(st: LinkState) -> Iterator[tuple[str, str, dict[str, Any], Node, int]]:
    for path in sorted(st.files):
        for qual, info in st.files[path]["classes"].items():
            lines = info.get("dln") or [info["l"]] * len(info["dec"])
            for dec, line in zip(info["dec"], lines):
                yield path, qual, info, dec, line


def split_call(st: LinkState, dec: Node) -> tuple[Node, list[Node], dict[str, Node], bool]:
    """A decorator as (evaluated callee, args, kwargs, was it a call)."""
    if dec["t"] == "call":
        return (
            st.r.ev(dec["f"]),
            [st.r.ev(a) for a in dec["a"]],
            {k: st.r.ev(v) for k, v in dec["k"].items()},
            True,
        )
    return st.r.ev(dec), [], {}, False


def methods_from(node: Node | None, default: list[str]) -> list[str]:
    if node is None:
        return default
    out = [m.upper() for m in (literal(x) for x in items(node)) if m]
    return sorted(set(out)) or default


def class_http_methods(st: LinkState, path: str, cls: str) -> list[tuple[str, str, str]]:
    """(verb, defining file, defining qualname) for HTTP-named methods of a class and its local bases."""
    out: dict[str, tuple[str, str, str]] = {}
    for c in st.r.ancestors({"t": "cls", "p": path, "n": cls})[0]:
        for verb in HTTP_METHOD_NAMES:
            qual = f"{c['n']}.{verb}"
            if verb not in out and qual in st.files[c["p"]]["funcs"]:
                out[verb] = (verb, c["p"], qual)
    return [out[v] for v in HTTP_METHOD_NAMES if v in out]


def function_route(
    st: LinkState,
    router: str,
    path_node: Node,
    methods: list[str],
    file: str,
    qual: str,
    framework: str,
    site: Site | None = None,
) -> PendingRoute:
    """A route served by a function; ``site`` is the binding (default: the function itself)."""
    info = st.func(file, qual)
    comp, _ = st.component_of(file, qual)
    at = site or (file, info.get("l", 1), info.get("e", 1))
    return PendingRoute(
        router=router,
        path=path_node,
        methods=methods,
        file=at[0],
        qual=qual,
        handler=st.handler_name(file, qual),
        start=at[1],
        end=max(at[2], at[1]),
        component=comp,
        component_file=file,
        framework=framework,
        doc=info.get("doc"),
        handler_file=file,
    )


def class_routes(
    st: LinkState,
    router: str,
    path_node: Node,
    file: str,
    cls: str,
    framework: str,
    only: list[str] | None = None,
    site: Site | None = None,
) -> list[PendingRoute]:
    """One route per HTTP method a class-based view defines (``Class.get``...)."""
    out = []
    short = cls.rsplit(".", 1)[-1]
    cinfo = st.files[file]["classes"][cls]
    for verb, vfile, vqual in class_http_methods(st, file, cls):
        if only and verb.upper() not in only:
            continue
        info = st.func(vfile, vqual)
        at = site or (vfile, info.get("l", cinfo["l"]), info.get("e", cinfo["e"]))
        out.append(
            PendingRoute(
                router=router,
                path=path_node,
                methods=[verb.upper()],
                file=at[0],
                qual=vqual,
                handler=f"{short}.{verb}",
                start=at[1],
                end=max(at[2], at[1]),
                component=short,
                component_file=file,
                framework=framework,
                doc=info.get("doc"),
                handler_file=vfile,
            )
        )
    return out


def full_paths(st: LinkState, tree: PrefixTree, route: PendingRoute) -> list[str]:
    out = []
    for pfx in tree.prefixes(route.router):
        out.append(normalize_path(render_path(to_expr(st.r, cat([pfx, route.path])))))
    return sorted(set(out))
