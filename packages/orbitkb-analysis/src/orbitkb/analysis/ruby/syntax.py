"""The Ruby tree-sitter parser and node helpers: call parts, literal folding into value parts.

A value is a list of parts, JSON-able for the parse cache: ``["lit", text]``, ``["env", name,
default]``, ``["const", name]`` (a constant resolved at link time, across files) or
``["unknown", hint]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.treesitter import text

Part = list[Any]
Value = list[Part]

#: Hosts that name the developer's machine: a conditional keeps its other branch.
LOOPBACK = ("localhost", "127.0.0.1", "0.0.0.0")


# --------------------------------------------------------------------------- calls


def method_name(call: Any) -> str:
    m = call.child_by_field_name("method")
    return text(m) if m is not None else ""


def receiver(call: Any) -> Any:
    return call.child_by_field_name("receiver")


def receiver_text(call: Any) -> str:
    r = receiver(call)
    return text(r) if r is not None else ""


def args(call: Any) -> list[Any]:
    a = call.child_by_field_name("arguments")
    return [c for c in a.named_children if c.type != "comment"] if a is not None else []


def positional(call: Any) -> list[Any]:
    return [a for a in args(call) if a.type not in ("pair", "hash", "block_argument")]


def keywords(call: Any) -> dict[str, Any]:
    """Keyword arguments and the pairs of a trailing hash: ``only: [...]``, ``'to' => 'c#a'``."""
    out: dict[str, Any] = {}
    pairs: list[Any] = []
    for a in args(call):
        if a.type == "pair":
            pairs.append(a)
        elif a.type == "hash":
            pairs.extend(c for c in a.named_children if c.type == "pair")
    for pair in pairs:
        key = pair.child_by_field_name("key")
        value = pair.child_by_field_name("value")
        if key is not None and value is not None:
            out[symbol(key) or text(key)] = value
    return out


def pair_arrow(call: Any) -> tuple[Any, Any] | None:
    """``get 'x' => 'c#a'``: the (key, value) of the first ``=>`` pair whose key is a string."""
    for a in args(call):
        pairs = [a] if a.type == "pair" else [c for c in a.named_children if c.type == "pair"] if a.type == "hash" else []
        for pair in pairs:
            key = pair.child_by_field_name("key")
            if key is not None and key.type == "string":
                return key, pair.child_by_field_name("value")
    return None


def block(call: Any) -> Any:
    b = call.child_by_field_name("block")
    if b is None:
        return None
    for c in b.named_children:
        if c.type in ("body_statement", "block_body"):
            return c
    return None


def symbol(node: Any) -> str | None:
    """The name of a symbol, a string without interpolation, or a hash key symbol."""
    t = node.type
    if t in ("simple_symbol", "hash_key_symbol"):
        return text(node).lstrip(":").rstrip(":")
    if t in ("string", "delimited_symbol", "bare_string", "bare_symbol"):
        if any(c.type == "interpolation" for c in node.named_children):
            return None
        return "".join(text(c) for c in node.named_children if c.type in ("string_content", "escape_sequence"))
    if t in ("identifier", "constant"):
        return text(node)
    return None


def words(node: Any) -> list[str]:
    """``%i[index show]``, ``[:index, :show]``, ``:index`` -> names."""
    if node.type in ("array", "symbol_array", "string_array"):
        out = []
        for c in node.named_children:
            if c.type in ("string_content", "bare_symbol", "bare_string", "_literal_contents"):
                out.extend(text(c).split())
            else:
                s = symbol(c)
                if s is not None:
                    out.append(s)
        return out
    s = symbol(node)
    return [s] if s is not None else []


# --------------------------------------------------------------------------- values


def fold(node: Any, scope: Mapping[str, Value] | None = None, depth: int = 0) -> Value:
    """A value expression as parts: literals, ENV reads, constants, interpolation, ``+``."""
    scope = scope or {}
    t = node.type
    if depth > 12:
        return [["unknown", text(node)[:80]]]
    if t == "parenthesized_statements" and node.named_child_count == 1:
        return fold(node.named_children[0], scope, depth + 1)
    if t in ("string", "bare_string"):
        out: Value = []
        for c in node.named_children:
            if c.type in ("string_content", "escape_sequence"):
                out.append(["lit", text(c)])
            elif c.type == "interpolation":
                inner = [x for x in c.named_children if x.type != "comment"]
                out.extend(fold(inner[0], scope, depth + 1) if len(inner) == 1 else [["unknown", text(c)]])
        return out or [["lit", ""]]
    if t in ("simple_symbol", "integer"):
        return [["lit", text(node).lstrip(":")]]
    if t == "constant":  # a constant of the enclosing class first, else one resolved across files
        return list(scope.get(text(node), [["const", text(node)]]))
    if t == "scope_resolution":
        return [["const", text(node).rsplit("::", 1)[-1]]]
    if t in ("identifier", "instance_variable", "class_variable"):
        return list(scope.get(text(node), [["unknown", text(node)]]))
    if t == "binary":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and left is not None and right is not None:
            if text(op) == "+":
                return fold(left, scope, depth + 1) + fold(right, scope, depth + 1)
            if text(op) in ("||", "or"):  # ENV['X'] || 'default'
                lv, rv = fold(left, scope, depth + 1), fold(right, scope, depth + 1)
                if len(lv) == 1 and lv[0][0] == "env" and lv[0][2] is None and literal(rv) is not None:
                    return [["env", lv[0][1], literal(rv)]]
                return lv
    if t == "conditional":
        branches = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
        values = [fold(b, scope, depth + 1) for b in branches if b is not None]
        for v in values:
            lit = literal(v) or ""
            if not any(h in lit for h in LOOPBACK):
                return v
        return values[0] if values else [["unknown", text(node)[:80]]]
    if t == "element_reference":  # ENV['X']
        obj = node.child_by_field_name("object")
        idx = node.named_children[1:]
        if obj is not None and text(obj) == "ENV" and idx:
            name = symbol(idx[0])
            if name:
                return [["env", name, None]]
    if t == "call":
        return _fold_call(node, scope, depth)
    return [["unknown", text(node)[:80]]]


def _fold_call(node: Any, scope: Mapping[str, Value], depth: int) -> Value:
    name, recv = method_name(node), receiver_text(node)
    pos = positional(node)
    if recv == "ENV" and name == "fetch" and pos:
        env = symbol(pos[0])
        default = literal(fold(pos[1], scope, depth + 1)) if len(pos) > 1 else None
        if default is None and block(node) is not None:
            stmts = block(node).named_children
            default = literal(fold(stmts[0], scope, depth + 1)) if stmts else None
        if env:
            return [["env", env, default]]
    if name in ("URI", "parse", "freeze", "to_s", "to_str", "strip") and (not recv or recv in ("URI",) or name != "parse"):
        if name in ("freeze", "to_s", "to_str", "strip") and receiver(node) is not None:
            return fold(receiver(node), scope, depth + 1)
        if pos:
            return fold(pos[0], scope, depth + 1)
    if name == "join" and recv in ("URI", "File") and pos:
        out: Value = []
        for i, p in enumerate(pos):
            if i:
                out.append(["lit", "/"])
            out.extend(fold(p, scope, depth + 1))
        return out
    return [["unknown", text(node)[:80]]]


def literal(value: Value) -> str | None:
    if all(p[0] == "lit" for p in value):
        return "".join(p[1] for p in value)
    return None
