"""Kotlin expressions, annotations and property declarations (tree-sitter-kotlin) -> ``syntax.py``."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.jvm.grammar import end_line, line, text
from orbitkb.analysis.jvm.syntax import (
    Ann,
    Arr,
    Assign,
    Bin,
    Call,
    E,
    Field,
    FieldDecl,
    Lam,
    Local,
    MRef,
    Name,
    Other,
    Str,
)

SKIP = {"line_comment", "block_comment"}
TYPE_NODES = {"user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type"}
_ARRAY_BUILDERS = {"arrayOf", "listOf", "setOf", "mutableListOf", "mutableSetOf"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "b": "\b"}
_DOLLAR = "\x00"  # an escaped "$" while templates are split, so "\${x}" stays literal
_TEMPLATE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def first_child(node: Any, kind: str) -> Any:
    for c in node.children:
        if c.type == kind:
            return c
    return None


def unwrap(node: Any) -> tuple[list[Ann], Any]:
    """Annotations of an ``annotated_expression`` chain and what they annotate (or None)."""
    anns: list[Ann] = []
    cur = node
    while cur is not None and cur.type == "annotated_expression":
        kids = [c for c in cur.named_children if c.type not in SKIP]
        nxt = None
        for i, kid in enumerate(kids):
            if kid.type == "annotation":
                anns.append(annotation(kid))
                continue
            if kid.type == "parenthesized_expression" and anns and not anns[-1].args:
                inner = [c for c in kid.named_children if c.type not in SKIP]
                if inner:
                    anns[-1].args["value"] = expr(inner[0])
                continue
            nxt = kid if i == len(kids) - 1 else None
        cur = nxt
    return anns, cur


def modifiers(node: Any) -> tuple[list[Ann], set[str]]:
    anns: list[Ann] = []
    mods: set[str] = set()
    for c in node.named_children:
        if c.type == "annotation":
            anns.append(annotation(c))
        else:
            mods.add(text(c))
    return anns, mods


def annotation(node: Any) -> Ann:
    name = "?"
    args: dict[str, E] = {}
    for c in node.named_children:
        if c.type == "user_type":
            name = text(c).rsplit(".", 1)[-1]
        elif c.type == "constructor_invocation":
            for k in c.named_children:
                if k.type == "user_type":
                    name = text(k).rsplit(".", 1)[-1]
                elif k.type == "value_arguments":
                    positional, named = _value_args(k)
                    args.update(named)
                    if len(positional) == 1:
                        args["value"] = positional[0]
                    elif positional:
                        args["value"] = Arr(positional, k)
    return Ann(name, args, line(node))


def type_string(node: Any) -> str:
    return "".join(text(node).split())


def body_of(node: Any) -> list[E]:
    kids = [c for c in node.named_children if c.type not in SKIP]
    if len(kids) == 1 and kids[0].type == "block":
        return statements(kids[0])
    # ``fun f() = expr``: the expression is what the function returns
    return [Other("return", [expr(kids[0])], node)] if len(kids) == 1 else [expr(k) for k in kids]


def property_decl(node: Any, pending: list[Ann], static: bool) -> FieldDecl | None:
    anns = list(pending)
    mods: set[str] = {"static"} if static else set()
    name = None
    type_text = ""
    init: E | None = None
    after_decl = False
    for c in node.children:
        t = c.type
        if t == "modifiers":
            more, mods2 = modifiers(c)
            anns.extend(more)
            mods |= mods2
        elif t == "val":
            mods.add("final")
        elif t == "variable_declaration":
            after_decl = True
            for k in c.named_children:
                if k.type == "identifier":
                    name = text(k)
                elif k.type in TYPE_NODES:
                    type_text = type_string(k)
        elif t == "property_delegate":
            kids = c.named_children
            init = expr(kids[0]) if kids else None
        elif after_decl and c.is_named and t not in SKIP and t not in ("getter", "setter") and init is None:
            init = expr(c)
    if name is None:
        return None
    if "const" in mods:
        mods.add("static")
    return FieldDecl(name, type_text, anns, init, line(node), mods)


def statements(block: Any) -> list[E]:
    out: list[E] = []
    for c in block.named_children:
        if c.type in SKIP:
            continue
        if c.type == "property_declaration":
            fld = property_decl(c, [], False)
            if fld is not None:
                out.append(Local(fld.name, fld.type, fld.init, line(c), c))
        else:
            out.append(expr(c))
    return out


def _string(node: Any) -> Str:
    raw: list[str | E] = []
    for c in node.children:
        t = c.type
        if t == "string_content":
            raw.append(text(c))
        elif t == "escape_sequence":
            esc = text(c)
            raw.append(_DOLLAR if esc == "\\$" else _ESCAPES.get(esc[1:2], esc[1:]))
        elif t == "interpolation":
            inner = [k for k in c.named_children if k.type not in SKIP]
            if len(inner) == 1 and inner[0].type == "character_literal" and text(inner[0]) == "'$'":
                raw.append(_DOLLAR)
            elif inner:
                raw.append(expr(inner[0]))
    # "$name" templates arrive as plain content: split them out here
    parts: list[str | E] = []
    buf = ""
    for piece in raw:
        if isinstance(piece, str):
            buf += piece
            continue
        parts.extend(_split_templates(buf, node))
        buf = ""
        parts.append(piece)
    parts.extend(_split_templates(buf, node))
    return Str(parts, node)


def _split_templates(buf: str, node: Any) -> list[str | E]:
    if not buf:
        return []
    out: list[str | E] = []
    pos = 0
    for m in _TEMPLATE.finditer(buf):
        if m.start() > pos:
            out.append(buf[pos : m.start()].replace(_DOLLAR, "$"))
        out.append(Name(m.group(1), node))
        pos = m.end()
    if pos < len(buf):
        out.append(buf[pos:].replace(_DOLLAR, "$"))
    return out


def _value_args(node: Any) -> tuple[list[E], dict[str, E]]:
    positional: list[E] = []
    named: dict[str, E] = {}
    for arg in node.named_children:
        if arg.type != "value_argument":
            continue
        kids = [k for k in arg.named_children if k.type not in SKIP]
        if len(kids) >= 2 and kids[0].type == "identifier" and any(k.type == "=" for k in arg.children):
            named[text(kids[0])] = expr(kids[-1])
        elif kids:
            positional.append(expr(kids[-1]))
    return positional, named


def _lambda(node: Any) -> Lam:
    lam = node if node.type == "lambda_literal" else first_child(node, "lambda_literal")
    if lam is None:
        return Lam([], [], node)
    params: list[str] = []
    body: list[E] = []
    for c in lam.named_children:
        if c.type == "lambda_parameters":
            params = [text(k) for k in c.named_children]
        elif c.type == "property_declaration":
            fld = property_decl(c, [], False)
            if fld is not None:
                body.append(Local(fld.name, fld.type, fld.init, line(c), c))
        elif c.type not in SKIP:
            body.append(expr(c))
    return Lam(params, body, node)


def _call(node: Any) -> E:
    kids = [c for c in node.children if c.is_named and c.type not in SKIP]
    if not kids:
        return Other("call", [], node)
    callee = kids[0]
    args: list[E] = []
    named: dict[str, E] = {}
    for k in kids[1:]:
        if k.type == "value_arguments":
            positional, more = _value_args(k)
            args.extend(positional)
            named.update(more)
        elif k.type == "annotated_lambda":
            args.append(_lambda(k))
    if callee.type == "call_expression":  # f(x) { trailing lambda }
        inner = _call(callee)
        if isinstance(inner, Call):
            inner.args.extend(args)
            inner.named.update(named)
            inner.end = end_line(node)
            inner.node = node
            return inner
        return Other("call", [inner, *args], node)
    if callee.type == "navigation_expression":
        nkids = [c for c in callee.children if c.type not in SKIP]
        if len(nkids) >= 3 and nkids[-1].type == "identifier":
            recv = expr(nkids[0])
            call = Call(recv, text(nkids[-1]), args, named, line(node), end_line(node), node)
            call.nline = line(nkids[-1])
            return call
    if callee.type in ("identifier", "simple_identifier"):
        name = text(callee)
        if name in _ARRAY_BUILDERS:
            return Arr(args, node)
        return Call(None, name, args, named, line(node), end_line(node), node, name[:1].isupper())
    return Other("call", [expr(callee), *args, *named.values()], node)


def expr(node: Any) -> E:  # noqa: C901 - one dispatch over node types reads best flat
    t = node.type
    if t == "string_literal" or t == "multiline_string_literal":
        return _string(node)
    if t == "identifier" or t == "simple_identifier":
        word = text(node)
        if word in ("true", "false"):
            return Other("bool", [], node)
        if word == "null":
            return Other("null", [], node)
        return Name(word, node)
    if t == "call_expression":
        return _call(node)
    if t == "navigation_expression":
        kids = [c for c in node.children if c.type not in SKIP]
        if len(kids) >= 3 and kids[-1].type == "identifier":
            op = kids[1].type
            obj = expr(kids[0])
            if op == "::":
                return MRef(obj, text(kids[-1]), node)
            return Field(obj, text(kids[-1]), node)
    if t == "callable_reference":
        kids = node.named_children
        if kids:
            obj = expr(kids[0]) if len(kids) > 1 else Name("this", node)
            return MRef(obj, text(kids[-1]), node)
    if t == "this_expression":
        return Name("this", node)
    if t in ("binary_expression", "additive_expression", "elvis_expression"):
        kids = [c for c in node.children if c.type not in SKIP]
        if len(kids) >= 3:
            return Bin(kids[1].type, expr(kids[0]), expr(kids[-1]), node)
    if t == "collection_literal":
        return Arr([expr(c) for c in node.named_children if c.type not in SKIP], node)
    if t in ("parenthesized_expression", "as_expression"):
        kids = [c for c in node.named_children if c.type not in SKIP]
        if kids:
            return expr(kids[0])
    if t in ("annotated_lambda", "lambda_literal"):
        return _lambda(node)
    if t == "assignment":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None and right is not None:
            return Assign(expr(left), expr(right), node)
    if t == "number_literal" or t == "integer_literal":
        return Other("num", [], node)
    if t == "block":
        return Other("block", statements(node), node)
    if t == "property_declaration":
        fld = property_decl(node, [], False)
        if fld is not None:
            return Local(fld.name, fld.type, fld.init, line(node), node)
    if t == "annotated_expression":
        _anns, rest = unwrap(node)
        if rest is not None:
            return expr(rest)
    if t == "object_literal":  # anonymous object: keep its functions' calls reachable
        kids = []
        body = first_child(node, "class_body")
        if body is not None:
            for c in body.named_children:
                if c.type == "function_declaration":
                    fb = first_child(c, "function_body")
                    if fb is not None:
                        kids.append(Other("block", body_of(fb), c))
        return Other("object", kids, node)
    return Other(t, [expr(c) for c in node.named_children if c.type not in SKIP], node)
