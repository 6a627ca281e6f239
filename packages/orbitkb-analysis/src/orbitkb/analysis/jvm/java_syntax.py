"""Java source (tree-sitter-java) -> the neutral syntax model of ``syntax.py``."""

from __future__ import annotations

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

_CLASS_KINDS = {
    "class_declaration": "class",
    "interface_declaration": "interface",
    "enum_declaration": "enum",
    "record_declaration": "record",
    "annotation_type_declaration": "annotation",
}
_MODIFIER_WORDS = {"public", "private", "protected", "static", "final", "abstract", "default", "transient"}
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "'": "'", "\\": "\\", "0": "\0", "b": "\b", "f": "\f"}
_SKIP = {"line_comment", "block_comment"}


def read_java(root: Any) -> FileSyntax:
    out = FileSyntax("java")
    _read_members(root, out, None)
    return out


def _read_members(container: Any, out: FileSyntax, owner: ClassDecl | None) -> None:
    doc: str | None = None
    for child in container.children:
        kind = child.type
        if kind == "block_comment":
            doc = doc_text(text(child))
            continue
        if kind == "line_comment":
            continue
        if kind == "package_declaration":
            for c in child.named_children:
                if c.type in ("scoped_identifier", "identifier"):
                    out.package = text(c)
        elif kind == "import_declaration":
            out.imports.append(_import(child))
        elif kind in _CLASS_KINDS:
            cls = _class(child, out, doc)
            (owner.inner if owner is not None else out.classes).append(cls)
        elif owner is not None and kind in ("field_declaration", "constant_declaration"):
            owner.fields.extend(_fields(child, owner.kind == "interface" or kind == "constant_declaration"))
        elif owner is not None and kind in (
            "method_declaration",
            "constructor_declaration",
            "compact_constructor_declaration",
        ):
            owner.methods.append(_method(child, doc))
        elif owner is not None and kind in ("enum_body_declarations", "ERROR"):
            _read_members(child, out, owner)
        elif owner is None and kind == "ERROR":
            recovered = _recover_class(child, doc)
            if recovered is not None:
                out.warnings.append(
                    f"line {recovered.line}: class {recovered.name} read from a broken region"
                )
                out.classes.append(recovered)
            _read_members(child, out, recovered)
        doc = None


def _recover_class(error: Any, doc: str | None) -> ClassDecl | None:
    """``[modifiers] class Name { members`` left inside an ERROR node by a syntax error further down."""
    kids = error.children
    for i, kid in enumerate(kids[:-1]):
        if (
            not kid.is_named
            and kid.type in ("class", "interface", "enum", "record")
            and kids[i + 1].type == "identifier"
        ):
            mods = kids[i - 1] if i > 0 and kids[i - 1].type == "modifiers" else None
            cls = ClassDecl(text(kids[i + 1]), kid.type, line(mods or kid), end_line(error))
            cls.decl = line(kids[i + 1])
            cls.doc = doc
            if mods is not None:
                cls.anns, cls.mods = _modifiers(mods)
            return cls
    return None


def _import(node: Any) -> str:
    raw = text(node).removeprefix("import").strip().rstrip(";").strip()
    if raw.startswith("static "):
        return "static " + raw[7:].replace(" ", "")
    return raw.replace(" ", "")


def _class(node: Any, out: FileSyntax, doc: str | None) -> ClassDecl:
    name_node = node.child_by_field_name("name")
    cls = ClassDecl(
        text(name_node) if name_node else "?", _CLASS_KINDS[node.type], line(node), end_line(node)
    )
    cls.decl = line(name_node) if name_node else cls.line
    cls.doc = doc
    for child in node.children:
        t = child.type
        if t == "modifiers":
            cls.anns, cls.mods = _modifiers(child)
        elif t == "superclass":
            cls.supers.extend(_types(child))
        elif t in ("super_interfaces", "extends_interfaces"):
            cls.supers.extend(_types(child))
        elif t == "formal_parameters" and cls.kind == "record":
            for p in _params(child):
                cls.fields.append(FieldDecl(p.name, p.type, p.anns, None, line(child), {"final"}))
    body = node.child_by_field_name("body")
    if body is not None:
        _read_members(body, out, cls)
    return cls


def _types(node: Any) -> list[tuple[str, list[str]]]:
    out = []
    for c in node.named_children:
        if c.type == "type_list":
            out.extend(_types(c))
        elif c.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
            out.append(type_ref(c))
    return out


def type_ref(node: Any) -> tuple[str, list[str]]:
    """(name without generics, simple names of the generic arguments)."""
    if node.type == "generic_type":
        base = node.named_children[0]
        args = []
        for c in node.named_children[1:]:
            if c.type == "type_arguments":
                args = [type_ref(a)[0] for a in c.named_children]
        return text(base).replace(" ", ""), args
    return text(node).replace(" ", ""), []


def _modifiers(node: Any) -> tuple[list[Ann], set[str]]:
    anns: list[Ann] = []
    mods: set[str] = set()
    for c in node.children:
        if c.type in ("annotation", "marker_annotation"):
            anns.append(_annotation(c))
        elif c.type in _MODIFIER_WORDS:
            mods.add(c.type)
    return anns, mods


def _annotation(node: Any) -> Ann:
    name_node = node.child_by_field_name("name")
    name = text(name_node).rsplit(".", 1)[-1] if name_node else "?"
    args: dict[str, E] = {}
    arg_list = node.child_by_field_name("arguments")
    if arg_list is not None:
        for c in arg_list.named_children:
            if c.type == "element_value_pair":
                key = c.child_by_field_name("key")
                value = c.child_by_field_name("value")
                if key is not None and value is not None:
                    args[text(key)] = expr(value)
            elif c.type not in _SKIP:
                args["value"] = expr(c)
    return Ann(name, args, line(node))


def _fields(node: Any, implicit_static: bool) -> list[FieldDecl]:
    anns: list[Ann] = []
    mods: set[str] = set()
    type_text = ""
    decls = []
    for c in node.children:
        if c.type == "modifiers":
            anns, mods = _modifiers(c)
        elif c.type == "variable_declarator":
            decls.append(c)
    type_node = node.child_by_field_name("type")
    if type_node is not None:
        type_text = text(type_node).replace(" ", "")
    if implicit_static:
        mods |= {"static", "final"}
    out = []
    for d in decls:
        name = d.child_by_field_name("name")
        value = d.child_by_field_name("value")
        out.append(
            FieldDecl(
                text(name) if name else "?", type_text, anns, expr(value) if value else None, line(d), mods
            )
        )
    return out


def _params(node: Any) -> list[Param]:
    out = []
    for c in node.named_children:
        if c.type in ("formal_parameter", "spread_parameter"):
            anns: list[Ann] = []
            for m in c.children:
                if m.type == "modifiers":
                    anns = _modifiers(m)[0]
            name = c.child_by_field_name("name")
            type_node = c.child_by_field_name("type")
            if name is None:  # spread_parameter keeps its name in a declarator
                for m in c.named_children:
                    if m.type == "variable_declarator":
                        name = m.child_by_field_name("name")
            out.append(
                Param(
                    text(name) if name else "?", text(type_node).replace(" ", "") if type_node else "", anns
                )
            )
    return out


def _method(node: Any, doc: str | None) -> Method:
    anns: list[Ann] = []
    mods: set[str] = set()
    for c in node.children:
        if c.type == "modifiers":
            anns, mods = _modifiers(c)
    is_ctor = node.type != "method_declaration"
    name_node = node.child_by_field_name("name")
    name = "<init>" if is_ctor else (text(name_node) if name_node else "?")
    params_node = node.child_by_field_name("parameters")
    ret = node.child_by_field_name("type")
    body = node.child_by_field_name("body")
    if any(a.name == "Override" for a in anns):
        mods.add("override")
    return Method(
        name,
        anns,
        _params(params_node) if params_node is not None else [],
        text(ret).replace(" ", "") if ret is not None else "",
        mods,
        doc,
        line(node),
        end_line(node),
        statements(body) if body is not None else None,
    )


# --------------------------------------------------------------------------- expressions


def statements(block: Any) -> list[E]:
    out: list[E] = []
    for c in block.named_children:
        if c.type in _SKIP:
            continue
        if c.type == "local_variable_declaration":
            out.extend(_locals(c))
        else:
            out.append(expr(c))
    return out


def _locals(node: Any) -> list[E]:
    type_node = node.child_by_field_name("type")
    type_text = text(type_node).replace(" ", "") if type_node is not None else ""
    out: list[E] = []
    for d in node.named_children:
        if d.type == "variable_declarator":
            name = d.child_by_field_name("name")
            value = d.child_by_field_name("value")
            out.append(
                Local(text(name) if name else "?", type_text, expr(value) if value else None, line(d), d)
            )
    return out


def _string(node: Any) -> Str:
    parts: list[str | E] = []
    for c in node.children:
        t = c.type
        if t in ("string_fragment", "multiline_string_fragment"):
            parts.append(text(c))
        elif t == "escape_sequence":
            raw = text(c)
            parts.append(_ESCAPES.get(raw[1:2], raw[1:]))
        elif t == "string_interpolation":  # Java string templates (preview)
            parts.extend(expr(x) for x in c.named_children)
    return Str(parts, node)


def _null_default(node: Any) -> E | None:
    """``x == null ? d : x`` / ``x != null ? x : d`` (``System.getenv("HOST") == null ? "orders" :
    System.getenv("HOST")``): Java's spelling of ``x ?: d``, read as the elvis operator.
    ``x == null ? "" : "." + x`` is an optional piece (a DNS suffix, a path prefix) only there when
    ``x`` is set: read as the empty text it is when nothing sets it."""
    cond = node.child_by_field_name("condition")
    yes, no = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    if cond is None or yes is None or no is None or cond.type != "binary_expression":
        return None
    op = text(cond.child_by_field_name("operator"))
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    if left is None or right is None or op not in ("==", "!="):
        return None
    checked = right if left.type == "null_literal" else left if right.type == "null_literal" else None
    value, default = (no, yes) if op == "==" else (yes, no)
    if checked is None:
        return None
    said, tested = " ".join(text(value).split()), " ".join(text(checked).split())
    if said == tested:
        return Bin("?:", expr(value), expr(default), node)
    if tested in said and _empty_string(default):
        return expr(default)
    return None


def _empty_string(node: Any) -> bool:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node.type == "string_literal" and text(node) == '""'


def expr(node: Any) -> E:  # noqa: C901 - one dispatch over node types reads best flat
    t = node.type
    if t == "string_literal":
        return _string(node)
    if t == "identifier":
        return Name(text(node), node)
    if t == "this":
        return Name("this", node)
    if t == "method_invocation":
        obj = node.child_by_field_name("object")
        name = node.child_by_field_name("name")
        args_node = node.child_by_field_name("arguments")
        call = Call(
            expr(obj) if obj is not None else None,
            text(name) if name else "?",
            _args(args_node),
            None,
            line(node),
            end_line(node),
            node,
        )
        call.nline = line(name) if name is not None else call.line
        return call
    if t == "field_access":
        obj = node.child_by_field_name("object")
        fld = node.child_by_field_name("field")
        return Field(expr(obj) if obj is not None else Name("?"), text(fld) if fld else "?", node)
    if t == "binary_expression":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        op = node.child_by_field_name("operator")
        if left is not None and right is not None:
            return Bin(text(op) if op else "?", expr(left), expr(right), node)
    if t == "ternary_expression" and (elvis := _null_default(node)) is not None:
        return elvis
    if t == "object_creation_expression":
        type_node = node.child_by_field_name("type")
        name = type_ref(type_node)[0] if type_node is not None else "?"
        kids: list[E] = []
        for c in node.named_children:
            if c.type == "class_body":  # anonymous class: keep its methods' calls reachable
                kids.extend(_anon_body(c))
        call = Call(
            None,
            name,
            _args(node.child_by_field_name("arguments")),
            None,
            line(node),
            end_line(node),
            node,
            True,
        )
        return call if not kids else Other("anon", [call, *kids], node)
    if t in ("array_initializer", "element_value_array_initializer"):
        return Arr([expr(c) for c in node.named_children if c.type not in _SKIP], node)
    if t == "array_creation_expression":
        value = node.child_by_field_name("value")
        if value is not None:
            return expr(value)
    if t == "parenthesized_expression" or t == "cast_expression":
        inner = node.child_by_field_name("value") if t == "cast_expression" else None
        if inner is None:
            named = [c for c in node.named_children if c.type not in _SKIP]
            inner = named[-1] if named else None
        if inner is not None:
            return expr(inner)
    if t == "method_reference":
        named = node.named_children
        if len(named) >= 2:
            return MRef(expr(named[0]), text(named[-1]), node)
    if t == "lambda_expression":
        params = node.child_by_field_name("parameters")
        body = node.child_by_field_name("body")
        names = [text(params)] if params is not None and params.type == "identifier" else []
        if params is not None and params.type != "identifier":
            names = [text(p.child_by_field_name("name") or p) for p in params.named_children]
        stmts = (
            statements(body) if body is not None and body.type == "block" else ([expr(body)] if body else [])
        )
        return Lam(names, stmts, node)
    if t == "assignment_expression":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None and right is not None:
            return Assign(expr(left), expr(right), node)
    if t == "expression_statement" and node.named_child_count == 1:
        return expr(node.named_children[0])
    if t == "return_statement" and node.named_child_count == 1:
        return Other("return", [expr(node.named_children[0])], node)
    if t in ("annotation", "marker_annotation"):
        ann = _annotation(node)  # a nested annotation value behaves like a named-argument call
        return Call(None, ann.name, [], ann.args, line(node), end_line(node), node, True)
    if t == "block":
        return Other("block", statements(node), node)
    if t in ("decimal_integer_literal", "hex_integer_literal", "decimal_floating_point_literal"):
        return Other("num", [], node)
    if t in ("true", "false"):
        return Other("bool", [], node)
    if t == "null_literal":
        return Other("null", [], node)
    if t == "class_literal":
        return Other("class", [], node)
    if t == "local_variable_declaration":
        return Other("block", _locals(node), node)
    if t == "resource" and node.child_by_field_name("name") is not None:  # try (Connection c = ...)
        type_node, value = node.child_by_field_name("type"), node.child_by_field_name("value")
        type_text = text(type_node).replace(" ", "") if type_node is not None else ""
        name = text(node.child_by_field_name("name"))
        return Local(name, type_text, expr(value) if value is not None else None, line(node), node)
    return Other(t, [expr(c) for c in node.named_children if c.type not in _SKIP], node)


def _anon_body(body: Any) -> list[E]:
    out: list[E] = []
    for c in body.named_children:
        if c.type == "method_declaration":
            b = c.child_by_field_name("body")
            if b is not None:
                out.append(Other("block", statements(b), c))
    return out


def _args(node: Any) -> list[E]:
    if node is None:
        return []
    return [expr(c) for c in node.named_children if c.type not in _SKIP]
