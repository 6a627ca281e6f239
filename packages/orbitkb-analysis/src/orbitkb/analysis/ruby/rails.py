"""Rails ``config/routes.rb``: resources/resource (only/except, nesting, member/collection),
namespace, scope, verb routes (``get 'x', to: 'c#a'``, ``get 'x' => 'c#a'``), match/via and root;
and Karafka's ``routes.draw`` topics. Paths are composed here: a routes file stands alone."""

from __future__ import annotations

import re
from typing import Any

from attrs import evolve, frozen

from orbitkb.analysis.inflect import singularize
from orbitkb.analysis.ruby import tables
from orbitkb.analysis.ruby.syntax import (
    block,
    fold,
    keywords,
    method_name,
    pair_arrow,
    positional,
    receiver_text,
    symbol,
    words,
)  # fmt: skip
from orbitkb.analysis.treesitter import end_line, line, text

_PARAM = re.compile(r"[:*]([A-Za-z_]\w*)")
_OPTIONAL = re.compile(r"\([^()]*\)")


def route_path(node: Any) -> str:
    """A route path literal with ``:id`` / ``*path`` written ``{id}`` and optional ``(...)`` dropped."""
    raw = symbol(node) or ""
    return _PARAM.sub(r"{\1}", _OPTIONAL.sub("", raw))


def join(prefix: str, seg: str) -> str:
    out = "/".join(p for p in (prefix.strip("/"), seg.strip("/")) if p)
    return "/" + out


def camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in re.split(r"[_\-]", name) if p)


@frozen
class Scope:
    path: str = ""
    module: str = ""  # "api/v1"
    controller: str | None = None  # inside member/collection or a resources block
    member_path: str | None = None  # the resource's member path (for member blocks)
    collection_path: str | None = None


def _controller(module: str, name: str) -> str:
    parts = [p for p in f"{module}/{name}".split("/") if p]
    return "::".join(camel(p) for p in parts) + "Controller"


def _handler(scope: Scope, target: str | None, default_controller: str | None, action: str | None) -> str:
    if target and "#" in target:
        ctrl, act = target.split("#", 1)
        return f"{_controller(scope.module, ctrl)}.{act}"
    ctrl = default_controller or scope.controller or "Rails"
    return f"{ctrl}.{action or 'call'}"


def draw(body: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    _walk(body, Scope(), out, 0)
    return out


def _emit(out: list[dict[str, Any]], node: Any, method: str, path: str, handler: str, form: bool = False) -> None:
    """``form``: a resource's HTML-form route (new/edit), which an API-only application does not draw."""
    out.append({"method": method, "path": path, "handler": handler, "line": line(node), "end": end_line(node),
                "framework": "rails", "cls": None, **({"form": True} if form else {})})  # fmt: skip


def _walk(body: Any, scope: Scope, out: list[dict[str, Any]], depth: int) -> None:
    if depth > 20:
        return
    for node in body.named_children:
        if node.type != "call" or receiver_text(node):
            continue
        name = method_name(node)
        pos, kw = positional(node), keywords(node)
        inner = block(node)
        if name in ("resources", "resource"):
            for res in pos:
                res_name = symbol(res)
                if res_name:
                    _resources(node, name == "resources", res_name, kw, scope, out, inner, depth)
        elif name in ("namespace",) and pos and symbol(pos[0]):
            ns = symbol(pos[0]) or ""
            seg = symbol(kw["path"]) if "path" in kw and symbol(kw["path"]) is not None else ns
            if inner is not None:
                sub = Scope(join(scope.path, seg or ""), f"{scope.module}/{ns}".strip("/"))
                _walk(inner, sub, out, depth + 1)
        elif name == "scope" and inner is not None:
            seg = route_path(pos[0]) if pos and symbol(pos[0]) is not None else ""
            if "path" in kw and symbol(kw["path"]) is not None:
                seg = route_path(kw["path"])
            module = scope.module
            if "module" in kw and symbol(kw["module"]):
                module = f"{module}/{symbol(kw['module'])}".strip("/")
            _walk(inner, evolve(scope, path=join(scope.path, seg), module=module), out, depth + 1)
        elif name in ("member", "collection") and inner is not None:
            path = scope.member_path if name == "member" else scope.collection_path
            if path is not None:
                _walk(inner, evolve(scope, path=path), out, depth + 1)
        elif name in ("constraints", "defaults", "controller", "concern", "with_options") and inner is not None:
            sub = scope
            if name == "controller" and pos and symbol(pos[0]):
                sub = evolve(scope, controller=_controller(scope.module, symbol(pos[0]) or ""))
            _walk(inner, sub, out, depth + 1)
        elif name in tables.VERBS or name == "match":
            _verb(node, name, pos, kw, scope, out)
        elif name == "root":
            target = symbol(kw["to"]) if "to" in kw else (symbol(pos[0]) if pos else None)
            _emit(out, node, "GET", join(scope.path, ""), _handler(scope, target, None, "index"))


def _verb(node: Any, name: str, pos: list[Any], kw: dict[str, Any], scope: Scope, out: list[dict[str, Any]]) -> None:
    arrow = pair_arrow(node)
    target = symbol(kw["to"]) if "to" in kw else None
    if arrow is not None:
        path_node, target_node = arrow
        target = symbol(target_node) if target_node is not None else target
    elif pos:
        path_node = pos[0]
    else:
        return
    raw = symbol(path_node)
    if raw is None:
        return
    prefix = scope.path
    if "on" in kw and symbol(kw["on"]) in ("member", "collection"):
        on = scope.member_path if symbol(kw["on"]) == "member" else scope.collection_path
        prefix = on if on is not None else prefix
    path = join(prefix, route_path(path_node))
    action = symbol(kw["action"]) if "action" in kw else None
    controller = _controller(scope.module, symbol(kw["controller"]) or "") if "controller" in kw else None
    if path_node.type in ("simple_symbol",) and not target:
        action = action or raw  # get :top inside a resource block
    elif not target and not controller and "/" in raw.strip("/") and ":" not in raw:
        parts = raw.strip("/").split("/")  # get 'photos/search' -> photos#search
        target = "/".join(parts[:-1]) + "#" + parts[-1]
    methods = [tables.VERBS[name]] if name in tables.VERBS else []
    if name == "match":
        via = words(kw["via"]) if "via" in kw else []
        methods = ["ANY"] if not via or "all" in via else [v.upper() for v in via]
    for method in methods:
        _emit(out, node, method, path, _handler(scope, target, controller, action or raw.strip("/").split("/")[-1]))


def _resources(node: Any, plural: bool, res: str, kw: dict[str, Any], scope: Scope, out: list[dict[str, Any]],
               inner: Any, depth: int) -> None:  # fmt: skip
    actions = tables.RESOURCES_ACTIONS if plural else tables.RESOURCE_ACTIONS
    names = {a for a, _, _ in actions}
    if "only" in kw:
        names &= set(words(kw["only"]))
    if "except" in kw:
        names -= set(words(kw["except"]))
    seg = route_path(kw["path"]) if "path" in kw and symbol(kw["path"]) is not None else res
    ctrl_name = symbol(kw["controller"]) if "controller" in kw and symbol(kw["controller"]) else (
        res if plural else res + "s" if not res.endswith("s") else res
    )
    controller = _controller(scope.module, ctrl_name or res)
    param = given if "param" in kw and (given := symbol(kw["param"])) else "id"
    base = join(scope.path, seg)
    for action, method, suffix in actions:
        if action in names:
            path = base + suffix.replace("{id}", "{" + param + "}")
            _emit(out, node, method, path, f"{controller}.{action}", action in tables.FORM_ACTIONS)
    if inner is None:
        return
    member = base + ("/{" + param + "}" if plural else "")
    nested = base + ("/{" + singularize(res) + "_" + param + "}" if plural else "")
    sub = Scope(nested, scope.module, controller, member, base)
    _walk(inner, sub, out, depth + 1)


def karafka_topics(body: Any) -> list[dict[str, Any]]:
    """``topic :orders do consumer OrdersConsumer end`` inside a Karafka ``routes.draw``."""
    out: list[dict[str, Any]] = []
    stack = [body]
    while stack:
        node = stack.pop()
        for child in node.named_children:
            if child.type == "call" and method_name(child) == "topic" and not receiver_text(child) and positional(child):
                channel = fold(positional(child)[0])
                if block(child) is not None and "consumer" in text(block(child)):
                    out.append({"direction": "consumes", "channel": channel, "provider": "kafka", "client": "karafka",
                                "line": line(child), "end": end_line(child), "fn": None, "cls": None})  # fmt: skip
                continue
            stack.append(child)
    return out
