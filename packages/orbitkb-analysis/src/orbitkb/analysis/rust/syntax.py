"""Rust source -> a compact JSON intermediate form (the cached parse output) built with tree-sitter.

Only what the linker interprets is kept: functions (with their attributes, their impl type and
trait, and their bodies flattened into ``let`` bindings and expression statements — control flow
is ignored on purpose, a route added inside an ``if`` is still a route), struct fields with their
attributes, constants, ``impl Trait for Type`` headers and the text of ``table!`` macros.

Expressions are small lists: ``["s", text]`` string, ``["id", name]``, ``["path", "a::b"]``,
``["f", x, field]``, ``["call", fn, args, line]``, ``["m", receiver, method, args, line]``,
``["mac", name, args, line]`` (a macro whose tokens read as arguments), ``["clo", body]``,
``["blk", stmts, tail]``, ``["bin", op, l, r]``, ``["st", type, [[field, value]...], line]``,
``["arr", items]``, ``["o", text]`` anything else. Statements: ``["let", name, value]``,
``["x", value]`` and ``["ret", value]`` (a ``return``).
"""

from __future__ import annotations

import re
from typing import Any

import tree_sitter as ts

from orbitkb.analysis.treesitter import line as _line
from orbitkb.analysis.treesitter import parser
from orbitkb.analysis.treesitter import text as _text

Node = ts.Node
Ir = list[Any]

_HINT_MAX = 60
#: macros whose tokens are a comma-separated expression list worth reading
ARG_MACROS = frozenset(
    {"format", "format_args", "concat", "vec", "query", "query_as", "query_scalar", "query_as_unchecked",
     "query_unchecked", "path", "routes", "services", "env", "json", "sqlx::query", "sqlx::query_as",
     "sqlx::query_scalar", "warp::path", "rocket::routes", "actix_web::services"}
)  # fmt: skip
_UNWRAP = frozenset(
    {"reference_expression", "await_expression", "try_expression", "parenthesized_expression",
     "unary_expression", "type_cast_expression"}
)  # fmt: skip
_FLATTEN = frozenset(
    {"if_expression", "match_expression", "for_expression", "while_expression", "loop_expression",
     "unsafe_block", "async_block", "block", "else_clause", "match_block", "match_arm", "let_condition",
     "try_block", "const_block"}
)  # fmt: skip


_DIGITS = re.compile(r"[0-9][0-9_]*(?![xob])")  # a decimal literal's digits, without its type suffix


def _string(node: Node) -> str:
    if node.type == "raw_string_literal":
        return "".join(_text(c) for c in node.children if c.type == "string_content")
    out = []
    for child in node.children:
        if child.type == "string_content":
            out.append(_text(child))
        elif child.type == "escape_sequence":
            esc = _text(child)
            out.append({"\\n": "\n", "\\t": "\t", '\\"': '"', "\\\\": "\\"}.get(esc, ""))
    return "".join(out)


class _Reader:
    def __init__(self) -> None:
        self.depth = 0

    def expr(self, node: Node | None) -> Ir:
        if node is None:
            return ["o", ""]
        self.depth += 1
        try:
            if self.depth > 150:
                return ["o", "…"]
            return self._expr(node)
        finally:
            self.depth -= 1

    def _expr(self, node: Node) -> Ir:
        kind = node.type
        if kind in ("string_literal", "raw_string_literal"):
            return ["s", _string(node)]
        if kind == "integer_literal":  # a port constant joins an address as its digits
            digits = _DIGITS.match(_text(node))
            return ["s", digits.group(0).replace("_", "")] if digits else ["o", _text(node)]
        if kind in ("identifier", "self", "field_identifier", "type_identifier"):
            return ["id", _text(node)]
        if kind in ("scoped_identifier", "scoped_type_identifier", "generic_function", "generic_type"):
            return ["path", without_generics(_text(node))]
        if kind in _UNWRAP:
            inner = [c for c in node.named_children if c.type not in ("type_identifier", "primitive_type")]
            return self.expr(inner[0] if inner else None) if inner else ["o", _text(node)[:_HINT_MAX]]
        if kind == "field_expression":
            return ["f", self.expr(node.child_by_field_name("value")), _text(node.child_by_field_name("field"))]
        if kind == "call_expression":
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "generic_function":  # db.collection::<Doc>("x")
                fn = fn.child_by_field_name("function") or fn
            args = self._args(node.child_by_field_name("arguments"))
            if fn is not None and fn.type == "field_expression":
                name = fn.child_by_field_name("field")  # a chain starts where its receiver does: cite the method
                return ["m", self.expr(fn.child_by_field_name("value")), _text(name), args,
                        _line(name) if name is not None else _line(node)]  # fmt: skip
            return ["call", self.expr(fn), args, _line(node)]
        if kind == "macro_invocation":
            return self._macro(node)
        if kind == "closure_expression":
            return ["clo", self.expr(node.child_by_field_name("body"))]
        if kind in ("block", "async_block", "unsafe_block"):
            block = node if kind == "block" else next((c for c in node.children if c.type == "block"), None)
            stmts, tail = self.block(block)
            return ["blk", stmts, tail]
        if kind == "binary_expression":
            op = node.child_by_field_name("operator")
            return ["bin", _text(op), self.expr(node.child_by_field_name("left")),
                    self.expr(node.child_by_field_name("right"))]  # fmt: skip
        if kind == "struct_expression":
            struct = _text(node.child_by_field_name("name")).split("<", 1)[0].rsplit("::", 1)[-1]
            fields: list[list[Any]] = []
            body = node.child_by_field_name("body")
            for f in body.named_children if body is not None else []:
                if f.type == "field_initializer":
                    fields.append([_text(f.child_by_field_name("field")), self.expr(f.child_by_field_name("value"))])
                elif f.type == "shorthand_field_initializer":
                    fields.append([_text(f), ["id", _text(f)]])
            return ["st", struct, fields, _line(node)]
        if kind == "array_expression":
            return ["arr", [self.expr(c) for c in node.named_children if c.type != "attribute_item"]]
        if kind == "tuple_expression":
            return ["arr", [self.expr(c) for c in node.named_children]]
        if kind in ("if_expression", "match_expression"):
            stmts = self.stmts_of(node)
            return ["blk", stmts, self._default_arm(node) if kind == "match_expression" else None]
        return ["o", _text(node)[:_HINT_MAX]]

    def _default_arm(self, node: Node) -> Ir | None:
        """The value of a ``match``'s catch-all arm (``_ => host``): what a match on a run-time
        setting gives when the setting names none of the special cases."""
        body = node.child_by_field_name("body")
        for arm in body.named_children if body is not None else []:
            pattern = arm.child_by_field_name("pattern") if arm.type == "match_arm" else None
            if pattern is not None and _text(pattern).strip() == "_":
                value = arm.child_by_field_name("value")
                return self.expr(value) if value is not None else None
        return None

    def _args(self, node: Node | None) -> list[Ir]:
        if node is None:
            return []
        return [self.expr(c) for c in node.named_children if c.type not in ("line_comment", "block_comment", "attribute_item")]

    def _macro(self, node: Node) -> Ir:
        name = _text(node.child_by_field_name("macro"))
        tokens = next((c for c in node.children if c.type == "token_tree"), None)
        line = _line(node)
        short = name.rsplit("::", 1)[-1]
        if tokens is None or (name not in ARG_MACROS and short not in ARG_MACROS):
            return ["mac", name, [], line, _text(tokens)[:2000]]
        inner = _text(tokens)[1:-1]
        tree = parser("tree_sitter_rust").parse(("fn _m() { _m(" + inner + "); }").encode("utf-8", "replace"))
        call = _find(tree.root_node, "call_expression")
        args = self._args(call.child_by_field_name("arguments")) if call is not None else []
        args = [_relined(a, line - 1) for a in args]
        return ["mac", name, args, line]

    # ----------------------------------------------------------------- statements

    def block(self, node: Node | None) -> tuple[list[Ir], Ir | None]:
        if node is None:
            return [], None
        stmts: list[Ir] = []
        tail: Ir | None = None
        children = [c for c in node.named_children if c.type not in ("line_comment", "block_comment")]
        for i, child in enumerate(children):
            is_last = i == len(children) - 1
            if child.type == "let_declaration":
                pattern = child.child_by_field_name("pattern")
                name = _text(pattern).removeprefix("mut ").strip() if pattern is not None else ""
                value = child.child_by_field_name("value")
                stmts.append(["let", name if name.isidentifier() else None, self.expr(value) if value else ["o", ""]])
                stmts.extend(self.stmts_of(value) if value is not None and value.type in _FLATTEN else [])
            elif child.type == "expression_statement":
                inner = child.named_children[0] if child.named_children else None
                if inner is not None and inner.type == "return_expression":
                    value = inner.named_children[0] if inner.named_children else None
                    stmts.append(["ret", self.expr(value) if value is not None else ["o", ""]])
                elif inner is not None and inner.type in _FLATTEN:
                    stmts.extend(self.stmts_of(inner))
                    if is_last and inner.type == "match_expression" and _text(child).rstrip()[-1:] != ";":
                        tail = self._default_arm(inner)  # a trailing match is the block's value
                elif inner is not None:
                    stmts.append(["x", self.expr(inner)])
            elif child.type in _FLATTEN and not is_last:
                stmts.extend(self.stmts_of(child))
            elif child.type == "return_expression":
                value = child.named_children[0] if child.named_children else None
                stmts.append(["ret", self.expr(value) if value is not None else ["o", ""]])
            elif child.type.endswith("_expression") or child.type in _FLATTEN or child.type.endswith("literal"):
                if child.type in _FLATTEN:
                    stmts.extend(self.stmts_of(child))
                if is_last:
                    tail = self.expr(child)
                else:
                    stmts.append(["x", self.expr(child)])
        return stmts, tail

    def stmts_of(self, node: Node) -> list[Ir]:
        """The statements inside control flow, flattened."""
        out: list[Ir] = []
        self.depth += 1
        try:
            if self.depth > 150:
                return out
            for child in node.named_children:
                if child.type == "block":
                    stmts, tail = self.block(child)
                    out.extend(stmts)
                    if tail is not None:
                        out.append(["x", tail])
                elif child.type in _FLATTEN:
                    out.extend(self.stmts_of(child))
                elif child.type.endswith("_expression") or child.type == "macro_invocation":
                    out.append(["x", self.expr(child)])  # a condition, a scrutinee, an arm's value
        finally:
            self.depth -= 1
        return out


def without_generics(text: str) -> str:
    """A path with its generic arguments dropped: ``Repo::<User>::new`` is ``Repo::new``,
    ``Vec::<Map<K, V>>::with_capacity`` is ``Vec::with_capacity``, ``Json<Order>`` is ``Json``."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch == "<":
            depth += 1
        elif ch == ">" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    parts = [p.strip() for p in "".join(out).split("::")]
    return "::".join(p for p in parts if p)


def _find(node: Node, kind: str) -> Node | None:
    if node.type == kind:
        return node
    for child in node.children:
        found = _find(child, kind)
        if found is not None:
            return found
    return None


def _relined(ir: Any, offset: int) -> Any:
    """Lines of a macro's re-parsed arguments, moved to where the macro is."""
    if isinstance(ir, list) and ir and ir[0] in ("call", "m", "mac", "st"):
        out = [_relined(x, offset) for x in ir]
        index = {"call": 3, "m": 4, "mac": 3, "st": 3}[ir[0]]
        if len(out) > index and isinstance(out[index], int):
            out[index] = out[index] + offset
        return out
    if isinstance(ir, list):
        return [_relined(x, offset) for x in ir]
    return ir
