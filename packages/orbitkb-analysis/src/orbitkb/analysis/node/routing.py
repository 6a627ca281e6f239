"""Compose HTTP routes across files: Express/Koa/Fastify mount graphs and NestJS controllers."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from attrs import frozen

from ..facts import RawApi
from . import autoload, nest_router, versioning
from .dto import DtoIndex
from .resolve import Resolver, Target, join_path, path_text, ref_text
from .signatures import FRAMEWORK_OF, INSTANCE_VERBS, ROUTER_KINDS

Node = tuple[Any, ...]
#: route paths that match every request: on an any-method route, the unknown-route fallback
_ROUTERS = frozenset({"express_router", "koa_router"})
_CATCH_ALL = frozenset({"*", "(.*)", "(.*)?", "{*path}", "*path", "*splat"})


@frozen
class Handled:
    """An API with the function that handles it (file, fid), for call attribution."""

    api: RawApi
    handler_loc: tuple[str, str] | None


def _import_specs(value: Any) -> list[str]:
    """Every module specifier a parsed file refers to: its imports and each `["imp", spec, ...]` ref."""
    out: list[str] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            if len(item) >= 2 and item[0] == "imp" and isinstance(item[1], str):
                out.append(item[1])
            stack.extend(i for i in item if isinstance(i, (list, dict)))
    imports = value.get("imports", {}) if isinstance(value, dict) else {}
    out.extend(str(spec[0]) for spec in imports.values() if spec)
    return out


def stem(path: str) -> str:
    name = posixpath.basename(path)
    return name.split(".", 1)[0] if not name.startswith(".") else name


def _node(target: Target | None) -> Node | None:
    if target is None:
        return None
    if target[0] == "obj" and target[3].get("t") in ROUTER_KINDS:
        return ("obj", target[1], target[2])
    if target[0] == "param":
        return target
    return None


class RouteGraph:
    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver) -> None:
        self.files = files
        self.r = resolver
        self.routes: list[tuple[Node, str, dict[str, Any], str | None]] = []
        self.parents: dict[Node, list[tuple[Node, str]]] = defaultdict(list)
        self.own: dict[Node, str] = {}
        self.kinds: dict[Node, str] = {}
        self.http_vcalls: list[tuple[str, dict[str, Any], Target]] = []
        self._referenced_files: set[str] | None = None

    def build(self) -> None:
        for file in sorted(self.files):
            data = self.files[file]
            for route in data.get("routes", []):
                self._add_route(file, route, self.r.resolve(file, route["recv"]))
            for vcall in data.get("vcalls", []):
                target = self.r.resolve(file, vcall["recv"])
                if target is not None and target[0] == "obj" and target[3].get("t") == "http_instance":
                    self.http_vcalls.append((file, vcall, target))
                elif target is not None and (
                    target[0] == "obj" or (target[0] == "param" and vcall["has_fn"])
                ):
                    if vcall.get("verb") in INSTANCE_VERBS or vcall.get("verb") == "all":
                        self._add_route(file, vcall, target)
            for mount in data.get("mounts", []):
                self._add_mount(file, mount)
            for pre in data.get("prefixes", []):
                node = _node(self.r.resolve(file, pre["recv"]))
                if node is not None:
                    self.own[node] = path_text(self.r.expr(file, pre["prefix"]))
        for plugin, prefix in autoload.prefixes(self.files, self.r).items():
            self.own.setdefault(plugin, prefix)

    def _add_route(self, file: str, route: dict[str, Any], target: Target | None) -> None:
        node = _node(target)
        if node is None:
            return
        self._note(node, target)
        self.routes.append((node, file, route, route.get("fw")))

    def _note(self, node: Node, target: Target | None) -> None:
        if target is not None and target[0] == "obj":
            self.kinds[node] = target[3].get("t", "")
            if "prefix" in target[3] and node not in self.own:
                self.own[node] = path_text(self.r.expr(target[1], target[3]["prefix"]))

    def _add_mount(self, file: str, mount: dict[str, Any]) -> None:
        parent_target = self.r.resolve(file, mount["recv"])
        parent = _node(parent_target)
        if parent is None:
            return
        self._note(parent, parent_target)
        prefix = path_text(self.r.expr(file, mount["prefix"])) if mount["prefix"] else ""
        children = list(mount["children"])
        lead = mount.get("lead")
        if lead is not None:
            target = self.r.resolve(file, lead)
            if target is not None and target[0] == "val":
                prefix = path_text(self.r.expr(target[1], target[2]))
            elif target is not None:
                children.insert(0, lead)
            else:  # an unresolved name in first position is a path more often than a router
                prefix = "{" + ref_text(lead) + "}"
        for child_ref in children:
            if child_ref[0] == "arg":
                fn = self.r.resolve(file, child_ref[1])
                if fn is not None and fn[0] == "module":
                    fn = self.r.export(fn[1], "default")
                child = ("param", fn[1], fn[2], child_ref[2]) if fn is not None and fn[0] == "fn" else None
                child_target = child
            else:
                child_target = self.r.resolve(file, child_ref)
                if child_target is not None and child_target[0] == "module":
                    child_target = self.r.export(child_target[1], "default")
                child = _node(child_target)
            if child is None or child == parent or (parent, prefix) in self.parents[child]:
                continue
            self._note(child, child_target)
            self.parents[child].append((parent, prefix))

    def prefixes(self, node: Node, seen: frozenset[Node] = frozenset()) -> list[str]:
        own = self.own.get(node, "")
        ups = [(p, pre) for p, pre in self.parents.get(node, []) if p not in seen and p != node]
        if not ups:
            return [join_path(own)]
        out: list[str] = []
        for parent, pre in ups:
            for base in self.prefixes(parent, seen | {node}):
                out.append(join_path(base, pre, own))
        return sorted(set(out))

    def framework(self, node: Node, seen: frozenset[Node] = frozenset()) -> str | None:
        """A parameter router (a plugin's `app`) takes the framework of whatever it is mounted on."""
        known = FRAMEWORK_OF.get(self.kinds.get(node, ""))
        if known:
            return known
        for parent, _ in self.parents.get(node, []):
            if parent not in seen:
                found = self.framework(parent, seen | {node})
                if found:
                    return found
        return None

    def _referenced(self) -> set[str]:
        """Files of the service some other file imports or requires (anywhere in its code)."""
        if self._referenced_files is None:
            found: set[str] = set()
            for file in sorted(self.files):
                for spec in _import_specs(self.files[file]):
                    target = self.r.index.resolve(file, spec)
                    if target is not None and target != file:
                        found.add(target)
            self._referenced_files = found
        return self._referenced_files

    def _unserved(self, node: Node) -> bool:
        """A Router no mount reaches, in a module no other file of the service loads, while the
        service starts a server of its own: dead code (a routes file left behind), not served."""
        if self.kinds.get(node) not in _ROUTERS or self.parents.get(node):
            return False
        if not any(data.get("entrypoint") for data in self.files.values()):
            return False  # a library of routers, or a service whose start is not in these files
        return node[0] == "obj" and node[1] not in self._referenced()

    def apis(self) -> list[Handled]:
        out: list[Handled] = []
        for node, file, route, declared in self.routes:
            if self._unserved(node):
                continue
            fw = self.framework(node) or declared
            handler, loc, doc = self._handler(file, route)
            path = path_text(self.r.expr(file, route["path"]))
            if route["method"] == "ALL" and path.strip("/") in _CATCH_ALL:
                continue  # `app.all("*", notFound)`: the fallback for every unknown route, not an API
            for base in self.prefixes(node):
                api = RawApi(
                    method=route["method"],
                    path=join_path(base, path),
                    handler=handler,
                    file=file,
                    start_line=route["line"],
                    end_line=route["end"],
                    kind="http",
                    component=stem(file),
                    doc=route.get("doc") or doc,
                    framework=fw or "express",
                )
                out.append(Handled(api, loc))
        return out

    def _handler(self, file: str, route: dict[str, Any]) -> tuple[str, tuple[str, str] | None, str | None]:
        ref = route.get("handler")
        target = self.r.resolve(file, ref) if ref else None
        if target is not None and target[0] == "fn":
            record = self.files[target[1]].get("functions", {}).get(target[2], {})
            return str(target[2]), (target[1], target[2]), record.get("doc")
        if ref is None:
            return f"<anonymous>@{route['line']}", None, None
        return ref_text(ref) or f"<anonymous>@{route['line']}", None, None


def nest_apis(files: Mapping[str, dict[str, Any]], resolver: Resolver) -> list[Handled]:
    """The HTTP routes of Nest controllers, unless the app is bootstrapped only as a microservice or
    an application context (``NestFactory.createMicroservice`` without ``NestFactory.create``): such
    an app starts no HTTP server, so its ``@Get()`` handlers are never served."""
    factories = {f for d in files.values() for f in d.get("nest_factories", ())}
    if factories and "create" not in factories:
        return []
    options = versioning.config(files)
    globals_ = sorted(
        {path_text(resolver.expr(f, d["global_prefix"])) for f, d in files.items() if d.get("global_prefix")}
    ) or [""]
    out: list[Handled] = []
    dtos: DtoIndex | None = None
    routed = nest_router.prefixes(files, resolver)
    registered = nest_router.served(files, resolver)
    for file in sorted(files):
        for ctrl in files[file].get("nest", []):
            if registered is not None and (file, ctrl["cls"]) not in registered:
                continue  # a controller no module registers is never mounted
            dtos = dtos or DtoIndex(files)
            prefixes = [
                join_path(r, path_text(resolver.expr(file, p)))
                for r in routed.get((file, ctrl["cls"]), [""])
                for p in ctrl["prefixes"]
            ]
            for route in ctrl["routes"]:
                paths = [path_text(resolver.expr(file, p)) for p in route["paths"]]
                declared = versioning.declared(options, ctrl, route)
                versions = versioning.segments(options, [path_text(resolver.expr(file, v)) for v in declared])
                full = sorted(
                    {join_path(g, v, pre, p) for g in globals_ for v in versions for pre in prefixes for p in paths}
                )
                for path in full:
                    api = RawApi(
                        method=route["method"],
                        path=path,
                        handler=route["fid"],
                        file=file,
                        start_line=route["line"],
                        end_line=route["end"],
                        kind="http",
                        component=ctrl["cls"],
                        doc=route.get("doc"),
                        framework="nestjs",
                        request_fields=dtos.request(route),
                        response_fields=dtos.shape(route.get("ret")),
                    )
                    out.append(Handled(api, (file, route["fid"])))
    return out
