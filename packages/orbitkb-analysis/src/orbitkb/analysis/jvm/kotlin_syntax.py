"""Kotlin source (tree-sitter-kotlin) -> the neutral syntax model of ``syntax.py``.

The grammar mis-reads some very common shapes, e.g. ``@RequestMapping("/x")`` on its own line
before ``class``: the annotations become a separate ``annotated_expression`` (arguments as a
parenthesized expression) and sometimes the class itself an infix expression ``class Name {..}``.
The reader repairs both: such annotations wait for the next declaration, and the infix shape is
read as a class whose body is the lambda's statements. ERROR nodes are read as containers, so a
broken region loses only itself.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.jvm.grammar import doc_text, end_line, line, text
from orbitkb.analysis.jvm.kotlin_expr import (
    SKIP,
    TYPE_NODES,
    body_of,
    expr,
    first_child,
    modifiers,
    property_decl,
    statements,
    type_string,
    unwrap,
)
from orbitkb.analysis.jvm.syntax import (
    Ann,
    ClassDecl,
    E,
    FieldDecl,
    FileSyntax,
    Method,
    Param,
)

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
            anns, rest = unwrap(child)
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
            body = first_child(child, "class_body")
            if body is not None:
                _read_members(body, out, owner, static=True)
        elif kind == "function_declaration":
            method = _function(child, doc, pending, static)
            (owner.methods if owner is not None else out.functions).append(method)
        elif kind == "property_declaration":
            fld = property_decl(child, pending, static)
            if fld is not None:
                (owner.fields if owner is not None else out.properties).append(fld)
        elif kind in ("secondary_constructor", "anonymous_initializer") and owner is not None:
            owner.methods.append(_initializer(child, pending))
        elif kind in ("ERROR", "enum_class_body"):
            _read_members(child, out, owner, static)
        elif kind == "infix_expression" and _misparsed_class(child):
            cls = _infix_class(child, out, doc, pending)
            (owner.inner if owner is not None else out.classes).append(cls)
        pending, doc = [], None


def _start(node: Any, pending: list[Ann]) -> int:
    """A declaration starts at its first annotation, even one the grammar left outside it."""
    return min([line(node), *(a.line for a in pending)])


def _import(node: Any) -> str:
    raw = text(node).removeprefix("import").strip()
    raw = raw.split(" as ")[0].strip()
    return raw.replace(" ", "")


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
        lam = body if body.type == "lambda_literal" else first_child(body, "lambda_literal")
        if lam is not None:
            _read_members(lam, out, cls, static=kind == "object")
    out.warnings.append(f"line {line(node)}: class {cls.name} read through a grammar ambiguity")
    return cls


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
            anns, cls.mods = modifiers(c)
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
                        ut = first_child(k, "user_type")
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
        inner = [c for c in node.named_children if c.type in TYPE_NODES]
        return type_ref(inner[0]) if inner else (text(node), [])
    names = []
    args: list[str] = []
    for c in node.named_children:
        if c.type == "identifier":
            names.append(text(c))
        elif c.type == "type_arguments":
            for proj in c.named_children:
                inner = [k for k in proj.named_children if k.type in TYPE_NODES]
                args.append(type_ref(inner[0])[0] if inner else text(proj))
    return (".".join(names) or text(node)), args


def _primary_constructor(node: Any, cls: ClassDecl) -> None:
    params_node = first_child(node, "class_parameters")
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
                anns, mods = modifiers(c)
            elif t in ("val", "var"):
                is_prop = True
                if t == "val":
                    mods.add("final")
            elif t == "identifier" and name == "?":
                name = text(c)
            elif t in TYPE_NODES:
                type_text = type_string(c)
            elif c.is_named and name != "?" and t not in SKIP:
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
            anns = modifiers(c)[0]
        elif c.type == "parameter":
            name = "?"
            type_text = ""
            for k in c.named_children:
                if k.type == "identifier" and name == "?":
                    name = text(k)
                elif k.type in TYPE_NODES:
                    type_text = type_string(k)
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
            more, mods2 = modifiers(c)
            anns.extend(more)
            mods |= mods2
        elif t == "function_value_parameters":
            params = _params(c)
            seen_params = True
        elif t in TYPE_NODES and seen_params:
            ret = type_string(c)
        elif t == "function_body":
            body = body_of(c)
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


def _initializer(node: Any, pending: list[Ann]) -> Method:
    """A secondary constructor (with its annotations: ``@CommandHandler constructor(..)``) or ``init``."""
    params_node = first_child(node, "function_value_parameters")
    block = first_child(node, "block")
    mods = first_child(node, "modifiers")
    return Method(
        "<init>",
        [*pending, *(modifiers(mods)[0] if mods is not None else [])],
        _params(params_node) if params_node is not None else [],
        "",
        set(),
        None,
        line(node),
        end_line(node),
        statements(block) if block is not None else [],
    )
