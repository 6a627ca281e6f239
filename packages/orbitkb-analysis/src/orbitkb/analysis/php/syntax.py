"""The PHP tree-sitter parser and node helpers: call shapes, arguments, literal folding.

A value is a list of JSON-able parts: ``["lit", text]``, ``["env", name, default]``,
``["config", key, default]`` (Laravel ``config('a.b')``, resolved at link time from the config
files), ``["param", name]`` (a Symfony container parameter), ``["this", property]`` (resolved per
class at link time) or ``["unknown", hint]``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.treesitter import text, walk

Part = list[Any]
Value = list[Part]


def short(name: str) -> str:
    """``\\App\\Models\\User`` -> ``User``."""
    return name.rsplit("\\", 1)[-1]


def facade(name: str) -> str:
    """A static receiver as facades are looked up: short and lower-case (``\\Illuminate\\Support\\Facades\\Http``,
    ``route``: PHP class names are case-insensitive, and real route files write ``route::get``)."""
    return short(name.lstrip("\\")).lower()


# --------------------------------------------------------------------------- calls


def call_name(node: Any) -> str:
    n = node.child_by_field_name("name")
    if n is None and node.type == "function_call_expression":
        n = node.child_by_field_name("function")
    return text(n) if n is not None else ""


def call_object(node: Any) -> Any:
    """The receiver of ``$a->m()`` / the class of ``A::m()``."""
    return node.child_by_field_name("object") or node.child_by_field_name("scope")


def _arguments(node: Any) -> list[tuple[str | None, Any]]:
    a = node.child_by_field_name("arguments") or next((c for c in node.named_children if c.type == "arguments"), None)
    out: list[tuple[str | None, Any]] = []
    for arg in a.named_children if a is not None else []:
        if arg.type != "argument":
            continue
        kids = [c for c in arg.named_children if c.type != "comment"]
        if len(kids) >= 2 and kids[0].type == "name":
            out.append((text(kids[0]), kids[-1]))  # name: value
        elif kids:
            out.append((None, kids[-1]))
    return out


def call_args(node: Any) -> list[Any]:
    """Every argument expression, named ones included, in order."""
    return [v for _, v in _arguments(node)]


def positional(node: Any) -> list[Any]:
    return [v for k, v in _arguments(node) if k is None]


def named_args(node: Any) -> dict[str, Any]:
    return {k: v for k, v in _arguments(node) if k is not None}


def array_items(node: Any) -> list[tuple[str | None, Any]]:
    """(key, value) of an array literal; key None for list items."""
    out: list[tuple[str | None, Any]] = []
    if node is None or node.type != "array_creation_expression":
        return out
    for item in node.named_children:
        if item.type != "array_element_initializer":
            continue
        kids = item.named_children
        if len(kids) == 2:
            out.append((string(kids[0]), kids[1]))
        elif kids:
            out.append((None, kids[0]))
    return out


def string(node: Any) -> str | None:
    """The text of a string literal without interpolation."""
    if node is None:
        return None
    if node.type in ("string", "encapsed_string"):
        if any(c.type not in ("string_content", "escape_sequence", "string_value") for c in node.named_children):
            return None
        return "".join(text(c) for c in node.named_children)
    if node.type == "class_constant_access_expression" and text(node).endswith("::class"):
        return short(text(node)[: -len("::class")])
    return None


def strings(node: Any) -> list[str]:
    if node is None:
        return []
    if node.type == "array_creation_expression":
        return [s for _, v in array_items(node) if (s := string(v)) is not None]
    s = string(node)
    return [s] if s is not None else []


# --------------------------------------------------------------------------- values

_SPRINTF = re.compile(r"%(?:\d+\$)?[-+ 0#]*\d*(?:\.\d+)?[sdfuxXbco]")


def fold(node: Any, scope: Mapping[str, Value] | None = None, depth: int = 0) -> Value:
    scope = scope or {}
    if node is None or depth > 12:
        return [["unknown", ""]]
    t = node.type
    if t == "parenthesized_expression" and node.named_children:
        return fold(node.named_children[0], scope, depth + 1)
    if t in ("string", "encapsed_string"):
        out: Value = []
        for c in node.named_children:
            if c.type in ("string_content", "escape_sequence", "string_value"):
                out.append(["lit", text(c)])
            else:
                out.extend(fold(c, scope, depth + 1))
        return out or [["lit", ""]]
    if t == "integer":
        return [["lit", text(node)]]
    if t == "variable_name":
        return list(scope.get(text(node), [["unknown", text(node)]]))
    if t == "member_access_expression":
        obj = node.child_by_field_name("object")
        if obj is not None and text(obj) == "$this":
            name = text(node.child_by_field_name("name"))
            return list(scope.get("$this->" + name, [["this", name]]))
    if t == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and left is not None and right is not None:
            if text(op) == ".":
                return fold(left, scope, depth + 1) + fold(right, scope, depth + 1)
            if text(op) in ("??", "?:", "||"):
                return _default(fold(left, scope, depth + 1), fold(right, scope, depth + 1))
    if t == "conditional_expression":  # getenv('X') ?: 'default'
        cond = node.child_by_field_name("condition")
        body = node.child_by_field_name("body")
        alt = node.child_by_field_name("alternative")
        if body is None and cond is not None and alt is not None:
            return _default(fold(cond, scope, depth + 1), fold(alt, scope, depth + 1))
        return fold(body or alt, scope, depth + 1)
    if t == "subscript_expression":  # $_ENV['X'], $_SERVER['X']
        kids = node.named_children
        if len(kids) == 2 and text(kids[0]) in ("$_ENV", "$_SERVER") and string(kids[1]):
            return [["env", string(kids[1]), None]]
    if t == "function_call_expression":
        return _fold_function(node, scope, depth)
    if t == "member_call_expression":
        obj = call_object(node)
        if obj is not None and call_name(node) == "getParameter" and positional(node):
            param = string(positional(node)[0])
            if param:
                return [["param", param]]
    if t == "class_constant_access_expression":  # self::BASE, static::BASE, Client::BASE
        key = text(node)
        owner, _, const = key.partition("::")
        found = scope.get(key) or (scope.get("self::" + const) if owner in ("static", scope.get("@class", [[""]])[0][0]) else None)
        return list(found) if found else [["unknown", key]]
    return [["unknown", text(node)[:80]]]


def _default(value: Value, fallback: Value) -> Value:
    lit = literal(fallback)
    if len(value) == 1 and value[0][0] in ("env", "config") and value[0][2] is None and lit is not None:
        return [[value[0][0], value[0][1], lit]]
    return value


def _fold_function(node: Any, scope: Mapping[str, Value], depth: int) -> Value:
    name = call_name(node).lstrip("\\")
    args = call_args(node)
    first = string(args[0]) if args else None
    if name in ("env", "getenv") and first:
        default = literal(fold(args[1], scope, depth + 1)) if len(args) > 1 else None
        return [["env", first, default]]
    if name == "config" and first:
        default = literal(fold(args[1], scope, depth + 1)) if len(args) > 1 else None
        return [["config", first, default]]
    if name == "sprintf" and first is not None:
        out: Value = []
        rest = args[1:]
        pos = 0
        for i, piece in enumerate(_SPRINTF.split(first)):
            if i:
                out.extend(fold(rest[i - 1], scope, depth + 1) if i - 1 < len(rest) else [["unknown", "%s"]])
            if piece:
                out.append(["lit", piece])
            pos += 1
        return out
    if name in ("rtrim", "trim", "ltrim", "strval", "urldecode") and args:
        return fold(args[0], scope, depth + 1)
    return [["unknown", text(node)[:80]]]


def literal(value: Value) -> str | None:
    if all(p[0] == "lit" for p in value):
        return "".join(p[1] for p in value)
    return None


def attributes(node: Any) -> list[tuple[str, Any]]:
    """PHP 8 attributes on a declaration: (short name, the attribute node)."""
    out = []
    for child in node.children:
        if child.type == "attribute_list":
            for attr in walk(child):
                if attr.type == "attribute" and attr.named_children:
                    out.append((short(text(attr.named_children[0])), attr))
    return out


def doc_comment(node: Any) -> str:
    """The ``/** ... */`` comment right before a declaration (annotations live there)."""
    prev = node.prev_named_sibling
    while prev is not None and prev.type == "attribute_list":
        prev = prev.prev_named_sibling
    if prev is not None and prev.type == "comment" and text(prev).startswith("/**"):
        return text(prev)
    return ""
