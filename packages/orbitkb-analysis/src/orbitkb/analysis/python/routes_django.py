"""Django routes: urlpatterns ``path``/``re_path``/``url`` and ``include`` chains walked from
ROOT_URLCONF (or from every urls module nobody includes), function views (``@api_view``,
``require_http_methods``), class-based views (own methods, else the generic view's methods),
``ViewSet.as_view({...})``, and DRF routers (``router.register``: list/detail routes from the
viewset's actions and mixins, plus ``@action`` extras)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from orbitkb.analysis.facts import RawApi
from orbitkb.analysis.python import regexroute
from orbitkb.analysis.python.ir import Node, cat, describe, items, lit, literal
from orbitkb.analysis.python.linkctx import LinkState, normalize_path, render_path, to_expr
from orbitkb.analysis.python.routing import class_http_methods, split_call
from orbitkb.analysis.python.signatures import (
    DJANGO_INCLUDE,
    DJANGO_METHOD_DECORATORS,
    DJANGO_PATH_FUNCS,
    GENERIC_VIEW_METHODS,
    VIEWSET_ACTIONS,
    VIEWSET_BASES,
)

Key = tuple[str, str]
Out = list[tuple[RawApi, Key | None, str]]
Site = tuple[str, int, int]
FRAMEWORK = "django"


class _Django:
    def __init__(self, st: LinkState):
        self.st = st
        self.out: Out = []
        self.site: Site | None = None
        self.registry: dict[str, list[tuple[Node, Node, Site]]] = defaultdict(list)
        self.router_prefix: dict[str, Node] = {}
        for inv in st.invs:
            c = inv.callee
            if c["t"] == "bm" and c["n"] == "register":
                o = st.r.as_object(c["o"])
                fam = st.r.family(o) or ""
                if fam.startswith("drf") and o["t"] == "inst":
                    prefix, viewset = inv.arg(0, "prefix"), inv.arg(1, "viewset")
                    if prefix is not None and viewset is not None and viewset["t"] == "cls":
                        self.registry[_rid(o)].append((prefix, viewset, (inv.path, inv.line, inv.end)))
                    if fam == "drf-nested-router" and len(o["a"]) > 1:
                        lookup = literal(o["k"].get("lookup")) or "parent"
                        self.router_prefix[_rid(o)] = cat([o["a"][1], lit(f"/<{lookup}_pk>/")])

    # ------------------------------------------------------------------ urlconf walk
    def walk_module(self, path: str, prefix: Node, seen: frozenset[str]) -> None:
        if path in seen or len(seen) > 16 or "urlpatterns" not in self.st.files[path]["sym"]:
            return
        self.entry(self.st.r.symbol(path, "urlpatterns"), prefix, seen | {path})

    def entry(self, node: Node, prefix: Node, seen: frozenset[str]) -> None:
        t = node["t"]
        if t in ("list", "any"):
            for x in node["v"]:
                self.entry(x, prefix, seen)
        elif t == "mod":
            self.walk_module(node["p"], prefix, seen)
        elif t == "bm" and node["n"] == "urls":
            self.drf(node["o"], prefix)
        elif t == "inst" and describe(node["c"]) in DJANGO_PATH_FUNCS:
            self.pattern(node, prefix, seen)
        elif t == "lit":
            path = self.st.r.find_module(node["v"])
            if path is not None:
                self.walk_module(path, prefix, seen)

    def pattern(self, node: Node, prefix: Node, seen: frozenset[str]) -> None:
        at = node.get("at")
        self.site = (at[0], at[1], at[2]) if at else None
        route = node["a"][0] if node["a"] else node["k"].get("route")
        view = node["a"][1] if len(node["a"]) > 1 else node["k"].get("view")
        if route is None or view is None:
            return
        routes = [route] if describe(node["c"]).endswith(".path") else _regex_routes(route)
        for one in routes:
            self.route(cat([prefix, one]), view, seen)

    def route(self, full: Node, view: Node, seen: frozenset[str]) -> None:
        if view["t"] == "inst" and describe(view["c"]) in DJANGO_INCLUDE:
            target = view["a"][0] if view["a"] else view["k"].get("arg")
            if (
                target is not None
                and target["t"] == "list"
                and len(target["v"]) == 2
                and target["v"][1]["t"] == "lit"
            ):
                target = target["v"][0]  # include((patterns, "app_name"))
            if target is not None:
                self.entry(target, cat([full, lit("/")]), seen)
        elif view["t"] == "fn":
            self.function_view(view, full)
        elif view["t"] == "ret" and view["f"]["t"] == "bm" and view["f"]["n"] == "as_view":
            cls = view["f"]["o"]
            if cls["t"] == "cls":
                actions = view["a"][0] if view["a"] else view["k"].get("actions")
                if actions is not None and actions["t"] == "dict":
                    for verb, action in sorted(actions["v"].items()):
                        name = literal(action)
                        if name:
                            self.emit(verb.upper(), full, cls, name)
                else:
                    self.class_view(cls, full)

    # ------------------------------------------------------------------ views
    def function_view(self, fn: Node, full: Node) -> None:
        info = self.st.func(fn["p"], fn["n"])
        methods = ["ANY"]
        for dec in info.get("dec", ()):
            fv, args, kw, is_call = split_call(self.st, dec)
            name = describe(fv).rsplit(".", 1)[-1]
            if name in ("api_view", "require_http_methods"):
                lst = args[0] if args else kw.get("http_method_names") or kw.get("request_method_list")
                methods = sorted({m.upper() for m in (literal(x) for x in items(lst)) if m}) or ["GET"]
            elif name in DJANGO_METHOD_DECORATORS:
                methods = DJANGO_METHOD_DECORATORS[name]
        for m in methods:
            self.add(m, full, fn["p"], fn["n"], self.st.handler_name(fn["p"], fn["n"]), None)

    def class_view(self, cls: Node, full: Node) -> None:
        found = class_http_methods(self.st, cls["p"], cls["n"])
        short = cls["n"].rsplit(".", 1)[-1]
        for verb, vfile, vqual in found:
            self.add(verb.upper(), full, vfile, vqual, f"{short}.{verb}", cls)
        if found:
            return
        for q in sorted(self.st.r.ancestors(cls)[1]):
            methods = GENERIC_VIEW_METHODS.get(q.rsplit(".", 1)[-1])
            if methods:
                for m in methods:
                    self.add(m, full, cls["p"], None, f"{short}.{m.lower()}", cls)
                return

    def drf(self, router: Node, prefix: Node) -> None:
        rid = _rid(router)
        base = cat([prefix, self.router_prefix.get(rid, lit(""))])
        for reg_prefix, viewset, site in self.registry.get(rid, ()):
            self.site = site
            self.viewset(viewset, cat([base, reg_prefix, lit("/")]))

    def viewset(self, cls: Node, base: Node) -> None:
        info = self.st.r.class_info(cls)
        lookup = "pk"
        for key in ("lookup_url_kwarg", "lookup_field"):
            v = self.st.r.class_attr(cls, key, None)
            if v.get("t") == "lit":
                lookup = v["v"]
                break
        detail = cat([base, lit(f"<{lookup}>/")])
        for action in self.actions(cls):
            method, is_detail = VIEWSET_ACTIONS[action]
            self.emit(method, detail if is_detail else base, cls, action)
        local = self.st.r.ancestors(cls)[0]
        for c in local:
            for qual, finfo in self.st.files[c["p"]]["funcs"].items():
                if finfo.get("c") != c["n"]:
                    continue
                for dec in finfo["dec"]:
                    fv, _args, kw, _ = split_call(self.st, dec)
                    name = describe(fv).rsplit(".", 1)[-1]
                    if name not in ("action", "detail_route", "list_route"):
                        continue
                    fname = qual.rsplit(".", 1)[-1]
                    url_path = literal(kw.get("url_path")) or fname
                    is_detail = name == "detail_route" or (name == "action" and _truthy(kw.get("detail")))
                    for m in sorted(
                        {(literal(x) or "get").upper() for x in items(kw.get("methods"))} or {"GET"}
                    ):
                        target = cat([detail if is_detail else base, lit(url_path)])
                        short = info["n"].rsplit(".", 1)[-1]
                        self.add(m, target, c["p"], qual, f"{short}.{fname}", cls)

    def actions(self, cls: Node) -> list[str]:
        found: set[str] = set()
        local, external = self.st.r.ancestors(cls)
        for c in local:
            for action in VIEWSET_ACTIONS:
                if f"{c['n']}.{action}" in self.st.files[c["p"]]["funcs"]:
                    found.add(action)
        for q in external:
            found.update(VIEWSET_BASES.get(q.rsplit(".", 1)[-1], ()))
        return [a for a in VIEWSET_ACTIONS if a in found]

    def emit(self, method: str, path: Node, cls: Node, action: str) -> None:
        qual = None
        for c in self.st.r.ancestors(cls)[0]:
            if f"{c['n']}.{action}" in self.st.files[c["p"]]["funcs"]:
                qual = (c["p"], f"{c['n']}.{action}")
                break
        short = cls["n"].rsplit(".", 1)[-1]
        if qual:
            self.add(method, path, qual[0], qual[1], f"{short}.{action}", cls)
        else:
            self.add(method, path, cls["p"], None, f"{short}.{action}", cls)

    def add(
        self, method: str, path: Node, file: str, qual: str | None, handler: str, cls: Node | None
    ) -> None:
        if cls is not None:
            cinfo = self.st.r.class_info(cls)
            comp, cfile = cls["n"].rsplit(".", 1)[-1], cls["p"]
        else:
            cinfo, comp, cfile = None, self.st.component_of(file, qual)[0], file
        info: dict[str, Any] = self.st.func(file, qual) if qual else {}
        if not info:
            info, file = cinfo or {}, cfile
        text = normalize_path(render_path(to_expr(self.st.r, path)))
        bound_file, start, end = self.site or ((file if qual else cfile), info.get("l", 1), info.get("e", 1))
        api = RawApi(
            method=method,
            path=text,
            handler=handler,
            file=bound_file,
            start_line=start,
            end_line=max(end, start),
            component=comp,
            doc=info.get("doc") if qual else (cinfo.get("doc") if cinfo else None),
            framework=FRAMEWORK,
        )
        self.out.append((api, (file, qual) if qual else None, cfile))


def _rid(o: Node) -> str:
    return o.get("id") or describe(o)


def _truthy(node: Node | None) -> bool:
    return literal(node) in ("true", "True")


def _regex_routes(route: Node) -> list[Node]:
    """A regex route as the path templates it serves (an unreadable route is kept as written)."""
    text = literal(route)
    if text is None:
        return [route]
    return [lit(t) for t in regexroute.templates(text)]


def collect(st: LinkState) -> Out:
    dj = _Django(st)
    roots: list[str] = []
    for path in sorted(st.files):
        if "ROOT_URLCONF" in st.files[path]["sym"]:
            conf = literal(st.r.symbol(path, "ROOT_URLCONF"))
            target = st.r.find_module(conf) if conf else None
            if target is not None and target not in roots:
                roots.append(target)
    if not roots:
        urls = [p for p in sorted(st.files) if "urlpatterns" in st.files[p]["sym"]]
        included: set[str] = set()
        for p in urls:
            included |= _included_modules(st, p)
        roots = [p for p in urls if p not in included]
    for root in roots:
        dj.walk_module(root, lit(""), frozenset())
    return dj.out


def _included_modules(st: LinkState, path: str) -> set[str]:
    out: set[str] = set()
    for x in items(st.r.symbol(path, "urlpatterns")):
        view = x["a"][1] if x["t"] == "inst" and len(x["a"]) > 1 else None
        if view is not None and view["t"] == "inst" and describe(view["c"]) in DJANGO_INCLUDE and view["a"]:
            target = view["a"][0]
            if target["t"] == "list" and target["v"]:
                target = target["v"][0]
            if target["t"] == "mod":
                out.add(target["p"])
            elif target["t"] == "lit":
                found = st.r.find_module(target["v"])
                if found:
                    out.add(found)
    return out
