"""Kotlin source (tree-sitter-kotlin) -> the neutral syntax model of ``syntax.py``.

The grammar mis-reads some very common shapes, e.g. ``@RequestMapping("/x")`` on its own line
before ``class``: the annotations become a separate ``annotated_expression`` (arguments as a
parenthesized expression) and sometimes the class itself an infix expression ``class Name {..}``.
The reader repairs both: such annotations wait for the next declaration, and the infix shape is
read as a class whose body is the lambda's statements. ERROR nodes are read as containers, so a
broken region loses only itself.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.jvm.grammar import doc_text, end_line, line, text
from orbitkb.analysis.jvm.syntax import (
    Ann,
    Arr,
    Assign,
    Bin,
    Call,
    ClassDecl,
    E,
    Field,
    FieldDecl,
    FileSyntax,
    Lam,
    Local,
    Method,
    MRef,
    Name,
    Other,
    Param,
    Str,
)

_SKIP = {"line_comment", "block_comment"}
_TYPE_NODES = {"user_type", "nullable_type", "function_type", "parenthesized_type", "non_nullable_type"}
_ARRAY_BUILDERS = {"arrayOf", "listOf", "setOf", "mutableListOf", "mutableSetOf"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "b": "\b"}
_DOLLAR = "\x00"  # an escaped "$" while templates are split, so "\${x}" stays literal
_TEMPLATE = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
_DECL_WORDS = ("class", "interface", "object")


def read_kotlin(root: Any) -> FileSyntax:
    out = FileSyntax("kotlin")
    _read_members(root, out, None)
    return out


def _read_members(container: Any, out: FileSyntax, owner: ClassDecl | None, static: bool = False) -> None:
    doc: str | None = None
    pending: list[Ann] = []
    for child in container.children:
        kind = child.type
        if kind == "block_comment":
            doc = doc_text(text(child)) or doc
            continue
        if kind == "line_comment" or not child.is_named:
            continue
        if kind == "annotated_expression":
            anns, rest = _unwrap(child)
            pending.extend(anns)
            if rest is not None and _misparsed_class(rest):
                cls = _infix_class(rest, out, doc, pending)
                (owner.inner if owner is not None else out.classes).append(cls)
                pending, doc = [], None
            continue
        if kind == "package_header":
            out.package = text(child).removeprefix("package").strip()
        elif kind == "import":
            out.imports.append(_import(child))
        elif kind in ("class_declaration", "object_declaration"):
            cls = _class(child, out, doc, pending)
            (owner.inner if owner is not None else out.classes).append(cls)
        elif kind == "companion_object" and owner is not None:
            body = _first(child, "class_body")
            if body is not None:
                _read_members(body, out, owner, static=True)
        elif kind == "function_declaration":
            method = _function(child, doc, pending, static)
            (owner.methods if owner is not None else out.functions).append(method)
        elif kind == "property_declaration":
            fld = _property(child, pending, static)
            if fld is not None:
                (owner.fields if owner is not None else out.properties).append(fld)
        elif kind in ("secondary_constructor", "anonymous_initializer") and owner is not None:
            owner.methods.append(_initializer(child))
        elif kind in ("ERROR", "enum_class_body"):
            _read_members(child, out, owner, static)
        elif kind == "infix_expression" and _misparsed_class(child):
            cls = _infix_class(child, out, doc, pending)
            (owner.inner if owner is not None else out.classes).append(cls)
        pending, doc = [], None


def _first(node: Any, kind: str) -> Any:
    for c in node.children:
        if c.type == kind:
            return c
    return None


def _start(node: Any, pending: list[Ann]) -> int:
    """A declaration starts at its first annotation, even one the grammar left outside it."""
    return min([line(node), *(a.line for a in pending)])


def _import(node: Any) -> str:
    raw = text(node).removeprefix("import").strip()
    raw = raw.split(" as ")[0].strip()
    return raw.replace(" ", "")


def _unwrap(node: Any) -> tuple[list[Ann], Any]:
    """Annotations of an ``annotated_expression`` chain and what they annotate (or None)."""
    anns: list[Ann] = []
    cur = node
    while cur is not None and cur.type == "annotated_expression":
        kids = [c for c in cur.named_children if c.type not in _SKIP]
        nxt = None
        for i, kid in enumerate(kids):
            if kid.type == "annotation":
                anns.append(annotation(kid))
                continue
            if kid.type == "parenthesized_expression" and anns and not anns[-1].args:
                inner = [c for c in kid.named_children if c.type not in _SKIP]
                if inner:
                    anns[-1].args["value"] = expr(inner[0])
                continue
            nxt = kid if i == len(kids) - 1 else None
        cur = nxt
    return anns, cur


def _misparsed_class(node: Any) -> bool:
    if node.type != "infix_expression":
        return False
    kids = node.named_children
    return len(kids) >= 3 and kids[0].type == "identifier" and text(kids[0]) in _DECL_WORDS


def _infix_class(node: Any, out: FileSyntax, doc: str | None, anns: list[Ann]) -> ClassDecl:
    kids = node.named_children
    kind = text(kids[0])
    cls = ClassDecl(text(kids[1]), kind, _start(node, anns), end_line(node))
    cls.decl = line(kids[1])
    cls.decl = line(kids[1])
    cls.doc = doc
    cls.anns = list(anns)
    body = kids[-1]
    if body.type in ("lambda_literal", "annotated_lambda"):
        lam = body if body.type == "lambda_literal" else _first(body, "lambda_literal")
        if lam is not None:
            _read_members(lam, out, cls, static=kind == "object")
    out.warnings.append(f"line {line(node)}: class {cls.name} read through a grammar ambiguity")
    return cls


def _modifiers(node: Any) -> tuple[list[Ann], set[str]]:
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


def _class(node: Any, out: FileSyntax, doc: str | None, pending: list[Ann]) -> ClassDecl:
    kind = "object" if node.type == "object_declaration" else "class"
    for c in node.children:
        if not c.is_named and c.type in ("interface", "class"):
            kind = c.type
            break
    name_node = node.child_by_field_name("name")
    cls = ClassDecl(text(name_node) if name_node else "?", kind, _start(node, pending), end_line(node))
    cls.decl = line(name_node) if name_node else cls.line
    cls.decl = line(name_node) if name_node else cls.line
    cls.doc = doc
    cls.anns = list(pending)
    body = None
    for c in node.children:
        t = c.type
        if t == "modifiers":
            anns, cls.mods = _modifiers(c)
            cls.anns.extend(anns)
            if "enum" in cls.mods:
                cls.kind = "enum"
        elif t == "primary_constructor":
            _primary_constructor(c, cls)
        elif t == "delegation_specifiers":
            for spec in c.named_children:
                for k in spec.named_children:
                    if k.type == "user_type":
                        cls.supers.append(type_ref(k))
                    elif k.type in ("constructor_invocation", "explicit_delegation"):
                        ut = _first(k, "user_type")
                        if ut is not None:
                            cls.supers.append(type_ref(ut))
        elif t in ("class_body", "enum_class_body"):
            body = c
    if body is not None:
        _read_members(body, out, cls, static=kind == "object")
    return cls


def type_ref(node: Any) -> tuple[str, list[str]]:
    """(dotted name without generics, simple names of the generic arguments)."""
    if node.type == "nullable_type":
        inner = [c for c in node.named_children if c.type in _TYPE_NODES]
        return type_ref(inner[0]) if inner else (text(node), [])
    names = []
    args: list[str] = []
    for c in node.named_children:
        if c.type == "identifier":
            names.append(text(c))
        elif c.type == "type_arguments":
            for proj in c.named_children:
                inner = [k for k in proj.named_children if k.type in _TYPE_NODES]
                args.append(type_ref(inner[0])[0] if inner else text(proj))
    return (".".join(names) or text(node)), args


def _type_text(node: Any) -> str:
    return "".join(text(node).split())


def _primary_constructor(node: Any, cls: ClassDecl) -> None:
    params_node = _first(node, "class_parameters")
    if params_node is None:
        return
    params = []
    for p in params_node.named_children:
        if p.type != "class_parameter":
            continue
        anns: list[Ann] = []
        mods: set[str] = set()
        name = "?"
        type_text = ""
        default: E | None = None
        is_prop = False
        for c in p.children:
            t = c.type
            if t == "modifiers":
                anns, mods = _modifiers(c)
            elif t in ("val", "var"):
                is_prop = True
                if t == "val":
                    mods.add("final")
            elif t == "identifier" and name == "?":
                name = text(c)
            elif t in _TYPE_NODES:
                type_text = _type_text(c)
            elif c.is_named and name != "?" and t not in _SKIP:
                default = expr(c)
        params.append(Param(name, type_text, anns))
        if is_prop:
            cls.fields.append(FieldDecl(name, type_text, anns, default, line(p), mods | {"ctor"}))
    cls.methods.append(Method("<init>", [], params, "", set(), None, line(node), end_line(node), []))


def _params(node: Any) -> list[Param]:
    out: list[Param] = []
    anns: list[Ann] = []
    for c in node.named_children:
        if c.type == "parameter_modifiers":
            anns = _modifiers(c)[0]
        elif c.type == "parameter":
            name = "?"
            type_text = ""
            for k in c.named_children:
                if k.type == "identifier" and name == "?":
                    name = text(k)
                elif k.type in _TYPE_NODES:
                    type_text = _type_text(k)
            out.append(Param(name, type_text, anns))
            anns = []
    return out


def _function(node: Any, doc: str | None, pending: list[Ann], static: bool) -> Method:
    anns = list(pending)
    mods: set[str] = {"static"} if static else set()
    params: list[Param] = []
    ret = ""
    body: list[E] | None = None
    seen_params = False
    for c in node.children:
        t = c.type
        if t == "modifiers":
            more, mods2 = _modifiers(c)
            anns.extend(more)
            mods |= mods2
        elif t == "function_value_parameters":
            params = _params(c)
            seen_params = True
        elif t in _TYPE_NODES and seen_params:
            ret = _type_text(c)
        elif t == "function_body":
            body = _body(c)
    name_node = node.child_by_field_name("name")
    return Method(
        text(name_node) if name_node else "?",
        anns,
        params,
        ret,
        mods,
        doc,
        _start(node, pending),
        end_line(node),
        body,
    )


def _body(node: Any) -> list[E]:
    kids = [c for c in node.named_children if c.type not in _SKIP]
    if len(kids) == 1 and kids[0].type == "block":
        return statements(kids[0])
    return [expr(k) for k in kids]


def _initializer(node: Any) -> Method:
    params_node = _first(node, "function_value_parameters")
    block = _first(node, "block")
    return Method(
        "<init>",
        [],
        _params(params_node) if params_node is not None else [],
        "",
        set(),
        None,
        line(node),
        end_line(node),
        statements(block) if block is not None else [],
    )


def _property(node: Any, pending: list[Ann], static: bool) -> FieldDecl | None:
    anns = list(pending)
    mods: set[str] = {"static"} if static else set()
    name = None
    type_text = ""
    init: E | None = None
    after_decl = False
    for c in node.children:
        t = c.type
        if t == "modifiers":
            more, mods2 = _modifiers(c)
            anns.extend(more)
            mods |= mods2
        elif t == "val":
            mods.add("final")
        elif t == "variable_declaration":
            after_decl = True
            for k in c.named_children:
                if k.type == "identifier":
                    name = text(k)
                elif k.type in _TYPE_NODES:
                    type_text = _type_text(k)
        elif t == "property_delegate":
            kids = c.named_children
            init = expr(kids[0]) if kids else None
        elif after_decl and c.is_named and t not in _SKIP and t not in ("getter", "setter") and init is None:
            init = expr(c)
    if name is None:
        return None
    if "const" in mods:
        mods.add("static")
    return FieldDecl(name, type_text, anns, init, line(node), mods)


# --------------------------------------------------------------------------- expressions


def statements(block: Any) -> list[E]:
    out: list[E] = []
    for c in block.named_children:
        if c.type in _SKIP:
            continue
        if c.type == "property_declaration":
            fld = _property(c, [], False)
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
            inner = [k for k in c.named_children if k.type not in _SKIP]
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
        kids = [k for k in arg.named_children if k.type not in _SKIP]
        if len(kids) >= 2 and kids[0].type == "identifier" and any(k.type == "=" for k in arg.children):
            named[text(kids[0])] = expr(kids[-1])
        elif kids:
            positional.append(expr(kids[-1]))
    return positional, named


def _lambda(node: Any) -> Lam:
    lam = node if node.type == "lambda_literal" else _first(node, "lambda_literal")
    if lam is None:
        return Lam([], [], node)
    params: list[str] = []
    body: list[E] = []
    for c in lam.named_children:
        if c.type == "lambda_parameters":
            params = [text(k) for k in c.named_children]
        elif c.type == "property_declaration":
            fld = _property(c, [], False)
            if fld is not None:
                body.append(Local(fld.name, fld.type, fld.init, line(c), c))
        elif c.type not in _SKIP:
            body.append(expr(c))
    return Lam(params, body, node)


def _call(node: Any) -> E:
    kids = [c for c in node.children if c.is_named and c.type not in _SKIP]
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
        nkids = [c for c in callee.children if c.type not in _SKIP]
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
        kids = [c for c in node.children if c.type not in _SKIP]
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
        kids = [c for c in node.children if c.type not in _SKIP]
        if len(kids) >= 3:
            return Bin(kids[1].type, expr(kids[0]), expr(kids[-1]), node)
    if t == "collection_literal":
        return Arr([expr(c) for c in node.named_children if c.type not in _SKIP], node)
    if t in ("parenthesized_expression", "as_expression"):
        kids = [c for c in node.named_children if c.type not in _SKIP]
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
        fld = _property(node, [], False)
        if fld is not None:
            return Local(fld.name, fld.type, fld.init, line(node), node)
    if t == "annotated_expression":
        _anns, rest = _unwrap(node)
        if rest is not None:
            return expr(rest)
    if t == "object_literal":  # anonymous object: keep its functions' calls reachable
        kids = []
        body = _first(node, "class_body")
        if body is not None:
            for c in body.named_children:
                if c.type == "function_declaration":
                    fb = _first(c, "function_body")
                    if fb is not None:
                        kids.append(Other("block", _body(fb), c))
        return Other("object", kids, node)
    return Other(t, [expr(c) for c in node.named_children if c.type not in _SKIP], node)
