"""PHP route registrations: Laravel (``Route::get``, groups with ``prefix``, ``Route::resource``
/ ``apiResource`` narrowed by ``only``/``except``, chained ``Route::prefix(...)->get``), Slim
(``$app->get``, ``$app->group('/x', ...)``, ``$app->map``) and Lumen (``$router->group([...])``).
A mixin of ``PhpFile``: it records routes in the file's output and visits closures with the
prefix and handler they run under."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.inflect import singularize
from orbitkb.analysis.php import tables
from orbitkb.analysis.php.syntax import (
    array_items,
    call_name,
    call_object,
    positional,
    short,
    string,
    strings,
)  # fmt: skip
from orbitkb.analysis.treesitter import end_line, line, text

#: Tree-sitter node types of a call.
CALL_TYPES = ("member_call_expression", "scoped_call_expression", "function_call_expression", "nullsafe_member_call_expression")


class RouteRecorder:
    """Route handling for ``PhpFile`` (which provides ``out``, ``_visit`` and ``_object``)."""

    out: dict[str, Any]

    def _visit(self, node: Any, ctx: dict[str, Any]) -> None:
        raise NotImplementedError

    def _object(self, node: Any, scope: dict[str, Any]) -> list[Any] | None:
        raise NotImplementedError

    def _route(self, node: Any, method: str, path: str, handler: str | None, framework: str, ctx: dict[str, Any]) -> None:
        full = "/" + "/".join(p.strip("/") for p in (ctx["prefix"], path) if p.strip("/"))
        full = re.sub(r"\{(\w+)\?\}", r"{\1}", re.sub(r"\{(\w+):[^}]*\}", r"{\1}", full))
        self.out["routes"].append({"method": method, "path": full, "handler": handler or f"{method} {full}",
                                   "line": line(node), "end": end_line(node), "framework": framework,
                                   "cls": ctx["cls"]["name"] if ctx["cls"] else None})  # fmt: skip

    def _laravel(self, node: Any, name: str, chain: list[Any], ctx: dict[str, Any]) -> bool:
        args = positional(node)
        if name != "group" and chain:  # Route::prefix('x')->middleware('y')->get(...)
            prefix = ctx["prefix"]
            for c in chain:
                if call_name(c) == "prefix" and positional(c) and string(positional(c)[0]) is not None:
                    prefix = _join(prefix, string(positional(c)[0]) or "")
            ctx = {**ctx, "prefix": prefix}
        if name == "group":
            prefix = ctx["prefix"]
            controller = ctx["controller"]
            for c in [*chain, node]:
                cn = call_name(c)
                if cn == "prefix" and positional(c) and string(positional(c)[0]) is not None:
                    prefix = _join(prefix, string(positional(c)[0]) or "")
                if cn == "controller" and positional(c):
                    controller = string(positional(c)[0])
                for arg in positional(c) if cn == "group" else []:
                    for k, v in array_items(arg):
                        if k == "prefix" and string(v) is not None:
                            prefix = _join(prefix, string(v) or "")
            for arg in args:
                if arg.type in ("anonymous_function", "arrow_function"):
                    body = arg.child_by_field_name("body")
                    if body is not None:
                        self._visit(body, {**ctx, "prefix": prefix, "controller": controller})
            return True
        if name in tables.VERBS and args:
            path = string(args[0])
            if path is not None:
                handler = _action(args[1] if len(args) > 1 else None, ctx["controller"])
                self._route(node, tables.VERBS[name], path, handler, "laravel", {**ctx, "fn": None})
                self._closure(args[1:], tables.VERBS[name], path, handler, ctx)
            return True
        if name == "match" and len(args) >= 2 and string(args[1]) is not None:
            handler = _action(args[2] if len(args) > 2 else None, ctx["controller"])
            for verb in strings(args[0]):
                self._route(node, verb.upper(), string(args[1]) or "", handler, "laravel", ctx)
            return True
        if name in ("resource", "apiResource", "resources", "apiResources") and args:
            self._resource(node, name, args, ctx)
            return True
        return False

    def _closure(self, args: list[Any], method: str, path: str, handler: str | None, ctx: dict[str, Any]) -> None:
        for arg in args:
            if arg.type in ("anonymous_function", "arrow_function"):
                body = arg.child_by_field_name("body")
                full = "/" + "/".join(p.strip("/") for p in (ctx["prefix"], path) if p.strip("/"))
                if body is not None:
                    self._visit(body, {**ctx, "fn": handler or f"{method} {full}", "scope": dict(ctx["scope"])})

    def _resource(self, node: Any, name: str, args: list[Any], ctx: dict[str, Any]) -> None:
        pairs: list[tuple[str, str | None]] = []
        if name in ("resources", "apiResources") and args[0].type == "array_creation_expression":
            pairs = [(k, string(v)) for k, v in array_items(args[0]) if k]
        elif string(args[0]):
            pairs = [(string(args[0]) or "", string(args[1]) if len(args) > 1 else None)]
        only: set[str] | None = None
        except_: set[str] = set()
        parent = node.parent
        while parent is not None and parent.type == "member_call_expression":
            cn = call_name(parent)
            values = [s for a in positional(parent) for s in strings(a)]
            if cn == "only":
                only = set(values)
            elif cn == "except":
                except_ |= set(values)
            parent = parent.parent
        api = name.startswith("api")
        for res, ctrl in pairs:
            segments = res.split(".")
            base = "/".join(f"{s}/{{{singularize(s).replace('-', '_')}}}" for s in segments[:-1])
            last = segments[-1]
            param = singularize(last).replace("-", "_")
            for action, method, suffix in tables.RESOURCE_ACTIONS:
                if (api and action in tables.API_RESOURCE_EXCLUDED) or (only is not None and action not in only):
                    continue
                if action in except_:
                    continue
                path = _join(base, last) + suffix.replace("{p}", "{" + param + "}")
                self._route(node, method, path, f"{ctrl or 'Controller'}.{action}", "laravel", ctx)

    def _router(self, node: Any, name: str, ctx: dict[str, Any]) -> bool:
        """Slim ``$app->get('/x', handler)`` / ``$app->group('/x', fn)``; Lumen ``$router->group([...])``."""
        args = positional(node)
        obj = call_object(node)
        if obj is None or self._object(obj, ctx["scope"]) is not None or not args:
            return False
        if name == "group" and len(args) >= 2 and args[-1].type in ("anonymous_function", "arrow_function"):
            seg = string(args[0])
            if seg is None:
                seg = next((string(v) for k, v in array_items(args[0]) if k == "prefix"), None)
            if seg is None:
                return False
            body = args[-1].child_by_field_name("body")
            if body is not None:
                self._visit(body, {**ctx, "prefix": _join(ctx["prefix"], seg)})
            return True
        verbs: list[str] = []
        path_node, handler_node = None, None
        if name in tables.VERBS and len(args) >= 2:
            verbs, path_node, handler_node = [tables.VERBS[name]], args[0], args[1]
        elif name == "map" and len(args) >= 3:
            verbs, path_node, handler_node = [v.upper() for v in strings(args[0])], args[1], args[2]
        if not verbs or string(path_node) is None or not _callable(handler_node):
            return False
        framework = "lumen" if text(obj) == "$router" else "slim"
        handler = _action(handler_node, None)
        for verb in verbs:
            self._route(node, verb, string(path_node) or "", handler, framework, ctx)
        self._closure([handler_node], verbs[0], string(path_node) or "", handler, ctx)
        return True


def chain_of(node: Any) -> tuple[Any, list[Any]]:
    """(the innermost call of a fluent chain, the calls from it outwards excluding ``node``)."""
    calls = []
    cur = node
    while cur is not None and cur.type in CALL_TYPES:
        calls.append(cur)
        nxt = call_object(cur)
        if nxt is None or nxt.type not in CALL_TYPES:
            break
        cur = nxt
    root = calls[-1] if calls else None
    return root, list(reversed(calls[1:]))


def _join(prefix: str, seg: str) -> str:
    return "/".join(p.strip("/") for p in (prefix, seg) if p.strip("/"))


def _callable(node: Any) -> bool:
    if node is None:
        return False
    if node.type in ("anonymous_function", "arrow_function", "class_constant_access_expression"):
        return True
    s = string(node)
    if s is not None:
        return "@" in s or ":" in s or "\\" in s
    items = array_items(node)
    return len(items) == 2 and items[0][0] is None and items[0][1].type == "class_constant_access_expression"


def _action(node: Any, controller: str | None) -> str | None:
    """``[OrderController::class, 'show']`` / ``'OrderController@show'`` / ``Invokable::class``."""
    if node is None:
        return None
    items = array_items(node)
    if len(items) == 2 and items[0][0] is None:
        ctrl, method = string(items[0][1]), string(items[1][1])
        if ctrl and method:
            return f"{short(ctrl)}.{method}"
    s = string(node)
    if s and node.type in ("string", "encapsed_string"):
        if "@" in s or ":" in s:
            ctrl, _, method = s.replace("::", ":").replace("@", ":").partition(":")
            return f"{short(ctrl)}.{method}"
        return f"{controller}.{s}" if controller else None
    if s and node.type == "class_constant_access_expression":
        return f"{s}.__invoke"
    return None
