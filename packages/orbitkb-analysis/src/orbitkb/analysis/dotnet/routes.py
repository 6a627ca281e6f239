"""The APIs a .NET service serves: ASP.NET Core controllers (``[Route]`` + ``[HttpGet("…")]``, the
``[controller]``/``[action]``/``[area]`` tokens), minimal APIs (``MapGet``… under ``MapGroup``
prefixes, followed through route-builder extension methods), Razor Pages handlers, and gRPC
services (``class X : Svc.SvcBase`` overrides)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, TypeRef, simple
from orbitkb.analysis.dotnet.tables import CONTROLLER_BASES, HTTP_ATTRS, MAP_METHODS, PAGE_BASES
from orbitkb.analysis.facts import RawApi

_PARAM = re.compile(r"\{\*{0,2}([A-Za-z_][\w]*)(?:[:=][^{}]*(?:\{[^{}]*\}[^{}]*)*)?\??\}")
_GRPC_BASE = re.compile(r"^(?:global::)?(?:[\w.]+\.)?(\w+)\.(\w+)Base$")
_PAGE_HANDLER = re.compile(r"^On(Get|Post|Put|Delete|Patch)(\w*?)(?:Async)?$")
_QUOTED = re.compile(r'"([A-Za-z]+)"')
MAX_PREFIX_DEPTH = 8


def clean_path(path: str) -> str:
    """``~/api//orders/{id:int?}/`` -> ``/api/orders/{id}``."""
    path = _PARAM.sub(r"{\1}", path.strip().lstrip("~"))
    path = re.sub(r"/{2,}", "/", "/" + path.strip("/"))
    return path


def _attr_name(attr: list[Any]) -> str:
    return str(attr[0]).removesuffix("Attribute")


def _attr_text(index: ServiceIndex, attr: list[Any], owner: str) -> str | None:
    for arg in attr[1]:
        if arg.get("nm") in (None, "template", "Template") and "v" in arg:
            return index.literal(arg["v"], owner)
    return None


def _attrs(data: Mapping[str, Any], *names: str) -> list[list[Any]]:
    return [a for a in data.get("a") or () if _attr_name(a) in names]


def grpc_service(ref: TypeRef, imported: set[str] | frozenset[str] = frozenset()) -> str | None:
    """``X.XBase`` (or ``XBase`` under ``using static …X;``) as a base type: the proto service X."""
    for base in ref.data["b"]:
        written: str = base.split("<", 1)[0].strip()
        m = _GRPC_BASE.match(written)
        if m and m.group(1) == m.group(2):
            return m.group(1)
        if written.endswith("Base") and written.removesuffix("Base") in imported:
            return written.removesuffix("Base")
    return None


# --------------------------------------------------------------------------- controllers


def is_controller(index: ServiceIndex, ref: TypeRef) -> bool:
    data = ref.data
    if data["k"] != "class" or "abstract" in data["mod"] or "static" in data["mod"]:
        return False
    if _attrs(data, "NonController"):
        return False
    if ref.name.endswith("Controller") or _attrs(data, "ApiController"):
        return True
    seen = 0
    base = data["b"][0] if data["b"] else ""
    while base and seen < 5:
        if simple(base) in CONTROLLER_BASES:
            return True
        parent = index.type(base)
        base = parent.data["b"][0] if parent is not None and parent.data["b"] else ""
        seen += 1
    return False


def _class_routes(index: ServiceIndex, ref: TypeRef) -> list[str]:
    current: TypeRef | None = ref
    for _ in range(5):  # [Route] is inherited from a base controller
        if current is None:
            break
        found = [
            r for a in _attrs(current.data, "Route") if (r := _attr_text(index, a, current.name)) is not None
        ]
        if found:
            return found
        current = index.type(current.data["b"][0]) if current.data["b"] else None
    return []


#: Conventional routes registered without a pattern (``MapDefaultControllerRoute()``, ``UseMvcWithDefaultRoute()``).
DEFAULT_PATTERN = "{controller=Home}/{action=Index}/{id?}"
_DEFAULT_ROUTES = ("MapDefaultControllerRoute", "UseMvcWithDefaultRoute")
_PATTERN_ROUTES = {
    "MapControllerRoute": "pattern",
    "MapRoute": "template",
    "MapAreaControllerRoute": "pattern",
}


def conventional_patterns(index: ServiceIndex) -> list[str]:
    """The conventional route patterns a service registers (``{controller=Home}/{action=Index}/{id?}``):
    controllers without attribute routes are reached through them, or not at all."""
    out: list[str] = []
    for site in index.sites():
        name = site.data.get("n", "")
        if name in _DEFAULT_ROUTES:
            out.append(DEFAULT_PATTERN)
        elif name in _PATTERN_ROUTES:
            arg = site.arg(1, _PATTERN_ROUTES[name])
            pattern = index.literal(arg.get("v"), None) if arg else None
            if pattern and "{controller" in pattern and "{action" in pattern:
                out.append(pattern)
    return sorted(set(out))


def _conventional(pattern: str, controller: str, action: str) -> str:
    """``{controller=Home}/{action=Index}/{id?}`` for one action: optional parameters left out."""
    path = re.sub(r"\{controller(?:=[^}]*)?\}", controller, pattern)
    path = re.sub(r"\{action(?:=[^}]*)?\}", action, path)
    return re.sub(r"/?\{[^}]*(?:\?|=[^}]*)\}", "", path)


def _join(prefix: str, template: str) -> str:
    if template.startswith(("/", "~/")):
        return template
    return f"{prefix}/{template}" if template else prefix


def _tokens(path: str, controller: str, action: str, area: str | None) -> str:
    path = re.sub(r"\[controller\]", controller, path, flags=re.I)
    path = re.sub(r"\[action\]", action, path, flags=re.I)
    return re.sub(r"\[area\]", area or "", path, flags=re.I)


def controller_apis(index: ServiceIndex, ref: TypeRef, patterns: list[str] | None = None) -> list[RawApi]:
    """Attribute-routed actions at their templates; the others through the conventional patterns."""
    class_routes = _class_routes(index, ref)
    patterns = patterns or []
    controller = ref.name.removesuffix("Controller")
    areas = [_attr_text(index, a, ref.name) for a in _attrs(ref.data, "Area")]
    out: list[RawApi] = []
    for m in ref.data["m"]:
        if m["c"] or "public" not in m["mod"] or "static" in m["mod"] or _attrs(m, "NonAction"):
            continue
        names = [_attr_text(index, a, ref.name) for a in _attrs(m, "ActionName")]
        action = names[0] if names and names[0] else m["n"].removesuffix("Async")
        routes = [t for a in _attrs(m, "Route") if (t := _attr_text(index, a, ref.name)) is not None]
        verbs: list[tuple[str, str | None]] = []
        for a in m.get("a") or ():
            name = _attr_name(a)
            if name in HTTP_ATTRS:
                verbs.append((HTTP_ATTRS[name], _attr_text(index, a, ref.name)))
            elif name == "AcceptVerbs":  # [AcceptVerbs("GET", "POST", Route = "x")]
                named = [
                    index.literal(arg["v"], ref.name)
                    for arg in a[1]
                    if arg.get("nm") == "Route" and "v" in arg
                ]
                template = named[0] if named else None
                verbs += [
                    (v.upper(), template)
                    for arg in a[1]
                    if "nm" not in arg
                    for v in _QUOTED.findall(arg.get("x", ""))
                ]
        if not (class_routes or routes or any(t is not None for _, t in verbs)):  # conventionally routed
            for verb in [v for v, _ in verbs] or ["ANY"]:
                for pattern in patterns:
                    out.append(
                        RawApi(verb, clean_path(_conventional(pattern, controller, action)), f"{ref.name}.{m['n']}",
                               ref.file, m["l"], m["e"], component=ref.name, doc=m.get("doc"), framework="aspnetcore-mvc")
                    )  # fmt: skip
            continue
        if not verbs and routes:
            verbs = [("ANY", None)]
        for verb, template in verbs:
            for prefix in class_routes or [""]:
                for tmpl in [template] if template is not None else routes or [""]:
                    path = _tokens(_join(prefix, tmpl), controller, action, areas[0] if areas else None)
                    out.append(
                        RawApi(
                            method=verb, path=clean_path(path), handler=f"{ref.name}.{m['n']}", file=ref.file,
                            start_line=m["l"], end_line=m["e"], component=ref.name, doc=m.get("doc"),
                            framework="aspnetcore",
                        )
                    )  # fmt: skip
    return out


# --------------------------------------------------------------------------- Razor Pages


def _page_path(file: str, template: str | None) -> str:
    """``Pages/Orders/Index.cshtml`` -> ``/Orders``; an ``@page "{id}"`` template is appended, an
    absolute one (``@page "/product/{id}"``) replaces the path."""
    rel = ("/" + file).rsplit("/Pages/", 1)[1]
    stem = rel.split(".cshtml", 1)[0] if ".cshtml" in rel else rel.rsplit(".", 1)[0]
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] == "Index":
        parts.pop()
    path = "/" + "/".join(parts)
    if template:
        path = template if template.startswith(("/", "~/")) else f"{path}/{template}"
    return clean_path(path)


def view_only_pages(index: ServiceIndex) -> list[RawApi]:
    """Razor pages with no code-behind class: a GET at the page's path."""
    code = {ref.file for ref in index.types}
    return [
        RawApi("GET", _page_path(view, template), paths_stem(view), view, 1, 1, framework="razor-pages")
        for view, template in sorted(index.pages.items())
        if "/Pages/" in "/" + view and view + ".cs" not in code
    ]


def paths_stem(file: str) -> str:
    return file.rsplit("/", 1)[-1].split(".", 1)[0]


def page_apis(ref: TypeRef, pages: Mapping[str, str] | None = None) -> list[RawApi]:
    if not any(simple(b) in PAGE_BASES for b in ref.data["b"]) or "/Pages/" not in "/" + ref.file:
        return []
    view = ref.file.removesuffix(".cs")
    path = _page_path(ref.file, (pages or {}).get(view))
    seen: set[str] = set()
    out = []
    for m in ref.data["m"]:
        match = _PAGE_HANDLER.match(m["n"])
        if not match or match.group(1).upper() in seen:
            continue
        seen.add(match.group(1).upper())
        out.append(
            RawApi(match.group(1).upper(), path, f"{ref.name}.{m['n']}", ref.file, m["l"], m["e"],
                   component=ref.name, doc=m.get("doc"), framework="razor-pages")
        )  # fmt: skip
    return out


# --------------------------------------------------------------------------- gRPC


def grpc_apis(ref: TypeRef, service: str) -> list[RawApi]:
    return [
        RawApi("RPC", f"{service}/{m['n']}", f"{ref.name}.{m['n']}", ref.file, m.get("nl", m["l"]), m["e"], kind="grpc",
               component=ref.name, doc=m.get("doc"), framework="grpc")
        for m in ref.data["m"]
        if "override" in m["mod"]
    ]  # fmt: skip


# --------------------------------------------------------------------------- minimal APIs


class MinimalApis:
    """``app.MapGet("/x", h)`` with the prefixes of the route groups it is called on."""

    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self.by_var: dict[tuple[str, int, int, str], list[Mapping[str, Any]]] = {}
        self.calls_by_name: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
        for site in index.sites():
            d = site.data
            if d.get("v"):
                self.by_var.setdefault((site.file, d["t"], d["m"], d["v"]), []).append(d)
            self.calls_by_name.setdefault(d.get("n", ""), []).append((site.file, d))

    def group_prefix(self, path: str, inv: Mapping[str, Any], depth: int = 0) -> str:
        """The route prefix the value of ``inv`` stands for (a ``MapGroup`` chain)."""
        prefix = self.receiver_prefix(path, inv, depth + 1)
        if inv.get("n") == "MapGroup":
            args = inv.get("a") or []
            seg = self.index.literal(args[0].get("v"), None) if args else None
            prefix = _join(prefix, seg.lstrip("/")) if seg else prefix
        return prefix

    def receiver_prefix(self, path: str, inv: Mapping[str, Any], depth: int = 0) -> str:
        if depth > MAX_PREFIX_DEPTH:
            return ""
        if "ri" in inv:
            recv = self.index.invocation(path, inv["ri"])
            return self.group_prefix(path, recv, depth + 1) if recv is not None else ""
        name = inv.get("r")
        if not name:
            return ""
        for d in reversed(self.by_var.get((path, inv["t"], inv["m"], name), [])):
            if d["l"] <= inv["l"]:
                return self.group_prefix(path, d, depth + 1)
        owner = self.index.owner(path, inv["t"])
        method = owner.method(inv["m"]) if owner is not None else None
        if method is not None and method["x"] and method["ps"] and method["ps"][0][1] == name:
            for file, call in self.calls_by_name.get(method["n"], []):
                if call is not inv and ("ri" in call or call.get("r")):
                    return self.receiver_prefix(file, call, depth + 1)
        return ""

    def apis(self) -> list[RawApi]:
        out: list[RawApi] = []
        for site in self.index.sites():
            d = site.data
            verb = MAP_METHODS.get(d.get("n", ""))
            args = d.get("a") or []
            if verb is None or not args or d.get("g"):
                continue
            template = self.index.literal(args[0].get("v"), site.owner.name if site.owner else None)
            if template is None or (verb == "ANY" and d["n"] == "Map" and not template.startswith("/")):
                continue
            verbs = [verb]
            if verb == "METHODS":
                verbs = [v.upper() for v in _QUOTED.findall(args[1].get("x", ""))] if len(args) > 1 else []
            handler, component = self._handler(site, args)
            path = clean_path(_join(self.receiver_prefix(site.file, d), template.lstrip("/") or ""))
            for v in verbs:
                out.append(
                    RawApi(v, path, handler, site.file, d["l"], d["e"], component=component,
                           framework="aspnetcore-minimal")
                )  # fmt: skip
        return out

    def _handler(self, site: Site, args: list[Mapping[str, Any]]) -> tuple[str, str | None]:
        owner = site.owner.name if site.owner else None
        target = args[-1] if len(args) > 1 else None
        if target is not None and target.get("k") in ("identifier", "member_access_expression"):
            name = target["x"].rsplit(".", 1)[-1]
            holder = target["x"].rsplit(".", 2)[-2] if "." in target["x"] else owner
            return (f"{holder}.{name}" if holder else name), holder
        return site.handler or "Program", owner
