"""C# expressions folded into value parts at parse time: literals, interpolation, concatenation,
locals and constants of the enclosing scopes, configuration reads (``Configuration["A:B"]``,
``GetValue<string>("A:B")``, ``GetConnectionString("x")``), environment variables, and the
address-carrying wrappers (``new Uri(x)``, ``GrpcChannel.ForAddress(x)``).

Parts are JSON lists: ``["lit", text]``, ``["env", name, default]``, ``["prop", key, default]``,
``["ref", "Type.Name"]`` (a constant another file may declare, folded by the linker) and
``["unknown", hint]``.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.treesitter import text

Parts = list[list[Any]]
MAX_DEPTH = 12
_DOTTED = re.compile(r"[\w.]+")  # a name or a dotted member path, nothing else
#: Invocations whose value is their first argument's (an address wrapped in a type).
PASS_THROUGH = frozenset(
    {"ForAddress", "TrimEnd", "TrimStart", "Trim", "ToString", "ToLower", "ToLowerInvariant"}
)
#: Types whose construction carries the address of their first argument.
ADDRESS_TYPES = frozenset({"Uri", "Channel", "System.Uri", "Url", "Flurl.Url"})  # Flurl's Url too


class Scope:
    """Names visible where an expression is read: locals and parameters, then the type's members."""

    def __init__(self, parent: Scope | None = None, name: str = "") -> None:
        self.parent = parent
        self.name = name
        self.locals: dict[str, Parts] = {}
        self.types: dict[str, str] = {}
        self.consts: dict[str, Parts] = {}

    def child(self, name: str) -> Scope:
        return Scope(self, name)

    def set_local(self, name: str, node: Any) -> None:
        parts = value(node, self)
        if parts and not (len(parts) == 1 and parts[0][0] == "unknown"):
            self.locals[name] = parts
        else:
            self.locals.pop(name, None)
        ty = self.type_of(node)
        if ty and name not in self.types:
            self.types[name] = ty

    def set_type(self, name: str, ty: str) -> None:
        self.types[name] = ty

    def set_const(self, name: str, parts: Parts) -> None:
        self.consts[name] = parts

    def lookup(self, name: str) -> Parts | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.locals:
                return scope.locals[name]
            if name in scope.consts:
                return scope.consts[name]
            scope = scope.parent
        return None

    def declared_type(self, name: str) -> str | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.types:
                return scope.types[name]
            scope = scope.parent
        return None

    def type_of(self, node: Any) -> str | None:
        """The type an expression evidently has: a declared name, ``new T(...)``, ``X<T>(...)``."""
        kind = node.type
        if kind == "await_expression" and node.named_children:
            return self.type_of(node.named_children[-1])
        if kind == "identifier":
            return self.declared_type(text(node))
        if kind == "member_access_expression":
            recv = node.child_by_field_name("expression")
            name = node.child_by_field_name("name")
            if recv is not None and name is not None and text(recv) == "this":
                return self.declared_type(text(name))
            return None
        if kind == "object_creation_expression":
            ty = node.child_by_field_name("type")
            return text(ty) if ty is not None else None
        if kind == "invocation_expression":
            fn = node.child_by_field_name("function")
            name = (
                fn.child_by_field_name("name")
                if fn is not None and fn.type == "member_access_expression"
                else fn
            )
            if name is not None and name.type == "generic_name":
                targs = [c for c in name.named_children if c.type == "type_argument_list"]
                args = targs[0].named_children if targs else []
                if len(args) == 1:
                    return text(args[0])
        return None


_ESCAPES = {"\\n": "\n", "\\t": "\t", '\\"': '"', "\\\\": "\\", "\\'": "'", "{{": "{", "}}": "}"}


def hint(node: Any, limit: int = 60) -> str:
    """A short readable form of an expression (large ones, lambdas and blocks, by their kind only)."""
    if node.end_byte - node.start_byte > 4 * limit:
        kind: str = node.type
        return kind
    return " ".join(text(node).split())[:limit]


def _string(node: Any) -> str:
    out = []
    for child in node.children:
        if child.type in ("string_literal_content", "string_content", "raw_string_content"):
            out.append(text(child))
        elif child.type == "escape_sequence":
            raw = text(child)
            out.append(_ESCAPES.get(raw, raw[1:]))
    return "".join(out)


def _config_receiver(node: Any) -> bool:
    last = text(node).rsplit(".", 1)[-1].lstrip("_").lower()
    return "config" in last or last in ("settings", "env")


def _first_string(args: Any, scope: Scope, depth: int) -> Parts | None:
    if args is None:
        return None
    items = [a for a in args.named_children if a.type == "argument"]
    if not items or not items[0].named_children:
        return None
    return value(items[0].named_children[-1], scope, depth + 1)


def _literal(parts: Parts | None) -> str | None:
    if parts and all(p[0] == "lit" for p in parts):
        return "".join(p[1] for p in parts)
    return None


def _invocation(node: Any, scope: Scope, depth: int) -> Parts | None:
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None:
        return None
    recv = fn.child_by_field_name("expression") if fn.type == "member_access_expression" else None
    name_node = fn.child_by_field_name("name") if fn.type == "member_access_expression" else fn
    if name_node is not None and name_node.type == "generic_name" and name_node.named_children:
        name_node = name_node.named_children[0]
    name = text(name_node) if name_node is not None else ""
    if name == "nameof":
        return [["lit", text(args).strip("()").rsplit(".", 1)[-1].strip()]] if args is not None else None
    if name in PASS_THROUGH:
        if recv is not None and name != "ForAddress":
            return value(recv, scope, depth + 1)
        return _first_string(args, scope, depth)
    items = [a.named_children[-1] for a in args.named_children if a.type == "argument" and a.named_children] if (
        args is not None) else []  # fmt: skip
    key = _literal(value(items[0], scope, depth + 1)) if items else None
    if key is None:
        return None
    if name == "GetEnvironmentVariable":
        return [["env", key, None]]
    section = _section(recv, scope, depth) if recv is not None and name in ("GetValue", "GetSection", "Get") else None
    if section is not None:  # a section held in a local or read through a chain, whatever its name
        default = _literal(value(items[1], scope, depth + 1)) if len(items) > 1 else None
        return [["prop", f"{section}:{key}", default]]
    if recv is not None and _config_receiver(recv):
        default = _literal(value(items[1], scope, depth + 1)) if len(items) > 1 else None
        if name == "GetConnectionString":
            return [["prop", f"ConnectionStrings:{key}", None]]
        if name in ("GetValue", "GetSection", "Get"):
            return [["prop", key, default]]
    return None


def _section(node: Any, scope: Scope, depth: int) -> str | None:
    """The key of a configuration section an expression holds: ``config.GetSection("Bus")`` itself,
    or a local set from it (``var bus = config.GetSection("Bus"); bus["Exchange"]``)."""
    if node.type not in ("identifier", "invocation_expression", "element_access_expression"):
        return None
    parts = value(node, scope, depth + 1)
    if len(parts) == 1 and parts[0][0] == "prop" and parts[0][2] is None:
        return str(parts[0][1])
    return None


def _helper_call(node: Any, scope: Scope, depth: int) -> Parts | None:
    """``API.Basket.GetBasket(url, id)``: a call the linker may fold through the static method's
    returned value (``["call", "API.Basket.GetBasket", [args…], hint]``)."""
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or args is None or fn.type not in ("identifier", "member_access_expression"):
        return None
    callee = text(fn)
    # a static helper: ``Helper(x)`` or ``Type.Helper(x)`` (a type name starts with a capital)
    if not _DOTTED.fullmatch(callee) or ("." in callee and not callee[:1].isupper()):
        return None
    items = [a.named_children[-1] for a in args.named_children if a.type == "argument" and a.named_children]
    if len(items) > 4 or depth > 3:
        return None
    return [["call", callee, [value(a, scope, depth + 1) for a in items], hint(node)]]


def _called(node: Any) -> str | None:
    """``settings.Options()`` -> ``settings.Options``: a call without arguments on a dotted name."""
    if node is None or node.type != "invocation_expression":
        return None
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or (args is not None and args.named_children) or not _DOTTED.fullmatch(text(fn)):
        return None
    return text(fn)


def value(node: Any, scope: Scope, depth: int = 0) -> Parts:
    """The value parts of an expression; never raises (what cannot be folded is ``unknown``)."""
    if node is None or depth > MAX_DEPTH:
        return []
    kind = node.type
    if kind in ("string_literal", "raw_string_literal"):
        return [["lit", _string(node)]]
    if kind == "verbatim_string_literal":
        return [["lit", text(node)[2:-1].replace('""', '"')]]
    if kind == "interpolated_string_expression":
        out: Parts = []
        for child in node.children:
            if child.type in ("string_content", "string_literal_content"):
                out.append(["lit", text(child)])
            elif child.type == "escape_sequence":
                out.append(["lit", _ESCAPES.get(text(child), text(child)[1:])])
            elif child.type == "interpolation":
                inner = next((c for c in child.named_children if c.type != "interpolation_brace"), None)
                parts = value(inner, scope, depth + 1) if inner is not None else []
                out.extend(parts or [["unknown", text(inner) if inner is not None else "?"]])
        return out
    if kind in ("parenthesized_expression", "argument", "cast_expression", "checked_expression"):
        kids = node.named_children
        return value(kids[-1], scope, depth + 1) if kids else []
    if kind == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        lv, rv = value(left, scope, depth + 1), value(right, scope, depth + 1)
        if op is not None and text(op) == "+":
            return lv + rv
        if op is not None and text(op) == "??":
            fallback = _literal(rv)
            if len(lv) == 1 and lv[0][0] in ("prop", "env") and lv[0][2] is None and fallback:  # ?? "" adds no default
                return [[lv[0][0], lv[0][1], fallback]]
            return lv if lv and lv[0][0] != "unknown" else rv
        return [["unknown", hint(node)]]
    if kind == "identifier":
        name = text(node)
        found = scope.lookup(name)
        return [list(p) for p in found] if found is not None else [["ref", name]]
    if kind == "member_access_expression":
        raw = text(node)
        recv = node.child_by_field_name("expression")
        name = node.child_by_field_name("name")
        if recv is not None and name is not None and text(recv) == "this":
            found = scope.lookup(text(name))
            return [list(p) for p in found] if found is not None else [["ref", text(name)]]
        if raw in ("string.Empty", "String.Empty", "System.String.Empty"):
            return [["lit", ""]]
        if _DOTTED.fullmatch(raw):
            return [["ref", raw]]
        called = _called(recv)
        if called is not None and name is not None:  # settings.Options().Url: the linker reads the type
            return [["ref", f"{called}().{text(name)}"]]
        return [["unknown", hint(node)]]
    if kind == "element_access_expression":
        recv = node.child_by_field_name("expression")
        sub = node.child_by_field_name("subscript")
        section = _section(recv, scope, depth) if recv is not None and sub is not None else None
        if section is not None or (recv is not None and sub is not None and _config_receiver(recv)):
            key = _literal(_first_string(sub, scope, depth))  # a string key: a section, not a string's char
            if key is not None:
                return [["prop", f"{section}:{key}" if section is not None else key, None]]
        return [["unknown", hint(node)]]
    if kind == "invocation_expression":
        found = _invocation(node, scope, depth)
        if found is not None:
            return found
        call = _helper_call(node, scope, depth)
        if call is not None:
            return call
    if kind == "object_creation_expression":
        ty = node.child_by_field_name("type")
        if ty is not None and text(ty) in ADDRESS_TYPES:
            args = node.child_by_field_name("arguments")
            items = [a for a in args.named_children if a.type == "argument"] if args is not None else []
            out = []
            for a in items[: 1 if text(ty) == "Channel" else 2]:  # new Uri(base, relative)
                if a.named_children:
                    out.extend(value(a.named_children[-1], scope, depth + 1))
            return out
    if kind == "await_expression" and node.named_children:
        return value(node.named_children[-1], scope, depth + 1)
    return [["unknown", hint(node)]]
