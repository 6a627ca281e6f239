"""Go source -> a compact JSON intermediate form (the cached parse output) built with tree-sitter.

The form keeps only what the linker interprets: imports, package-level values, struct types and
every function body flattened into assignments, expression statements and returns (control flow
is ignored on purpose: a route registered inside an ``if`` is still a route). Expressions are
small lists: ``["s", text]`` string, ``["id", name]``, ``["sel", x, field]``,
``["call", fn, args, line, end_line]``, ``["bin", op, l, r]``, ``["comp", type, [[key, v]...], line, end_line]``,
``["fn", lit_index]`` (a func literal stored in ``lits``), ``["spread", x]`` (``xs...`` passed on to
a variadic parameter), ``["o", text]`` anything else; an assignment's target ``*p`` is ``["deref", p]``.
"""

from __future__ import annotations

import re
from typing import Any

import tree_sitter as ts
import tree_sitter_go as tsg

_LANGUAGE = ts.Language(tsg.language())
_PARSER = ts.Parser(_LANGUAGE)

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "0": "\0"}
_HINT_MAX = 80
_PASS_THROUGH = frozenset({"parenthesized_expression", "type_assertion_expression"})
_STMT_CONTAINERS = frozenset(
    {
        "block",
        "statement_list",
        "expression_switch_statement",
        "type_switch_statement",
        "select_statement",
        "expression_case",
        "type_case",
        "default_case",
        "communication_case",
        "labeled_statement",
    }
)

Node = ts.Node
Ir = list[Any]


def _named(node: Node) -> list[Node]:
    """A node's named children without comments: ``f("",  // exchange`` newline ``key)`` has two
    arguments, not three (tree-sitter keeps a comment wherever it sits, between arguments too)."""
    return [c for c in node.named_children if c.type != "comment"]


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _string_value(node: Node) -> str:
    raw = _text(node)
    if node.type == "raw_string_literal":
        return raw[1:-1]
    body = raw[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class _FileBuilder:
    """Walks one syntax tree; func literals are appended to ``lits`` and referenced by index."""

    def __init__(self) -> None:
        self.lits: list[dict[str, Any]] = []
        self.calls: set[str] = set()

    # ------------------------------------------------------------------ expressions
    def expr(self, n: Node | None) -> Ir:
        if n is None:
            return ["o", ""]
        t = n.type
        if t == "identifier":
            return ["id", _text(n)]
        if t in ("interpreted_string_literal", "raw_string_literal"):
            return ["s", _string_value(n)]
        if t == "selector_expression":
            fld = n.child_by_field_name("field")
            return ["sel", self.expr(n.child_by_field_name("operand")), _text(fld) if fld else ""]
        if t == "call_expression":
            args_node = n.child_by_field_name("arguments")
            args = [self.expr(a) for a in _named(args_node)] if args_node else []
            fn = self.expr(n.child_by_field_name("function"))
            if fn[0] == "id":
                self.calls.add(fn[1])
            elif fn[0] == "sel":
                self.calls.add(fn[2])
            return ["call", fn, args, n.start_point[0] + 1, n.end_point[0] + 1]
        if t == "binary_expression":
            op = n.child_by_field_name("operator")
            return [
                "bin",
                _text(op) if op else "",
                self.expr(n.child_by_field_name("left")),
                self.expr(n.child_by_field_name("right")),
            ]
        if t == "unary_expression":
            operand = n.child_by_field_name("operand")
            op = n.child_by_field_name("operator")
            if op is not None and _text(op) == "<-":
                return ["o", "<-"]
            return self.expr(operand)
        if t in _PASS_THROUGH:
            inner = n.child_by_field_name("operand") or (n.named_children[0] if n.named_children else None)
            return self.expr(inner)
        if t == "variadic_argument" and n.named_children:  # f(a, xs...): xs is the variadic slice itself
            return ["spread", self.expr(n.named_children[0])]
        if t == "composite_literal":
            return self.composite(n)
        if t == "func_literal":
            return ["fn", self.func_lit(n)]
        if t in ("int_literal", "float_literal", "true", "false", "nil", "rune_literal"):
            return ["n", _text(n)]
        if t == "index_expression":
            return ["o", _text(n)[:_HINT_MAX]]
        if t == "literal_element":
            return self.expr(n.named_children[0]) if n.named_children else ["o", ""]
        if t == "literal_value":
            return ["comp", "", self.elements(n), n.start_point[0] + 1, n.end_point[0] + 1]
        return ["o", _text(n)[:_HINT_MAX]]

    def target(self, n: Node) -> Ir:
        """An assignment's left side: ``*p = v`` is ``["deref", p]`` (a write through a pointer)."""
        op = n.child_by_field_name("operator") if n.type == "unary_expression" else None
        if op is not None and _text(op) == "*":
            return ["deref", self.expr(n.child_by_field_name("operand"))]
        return self.expr(n)

    def elements(self, body: Node) -> list[Any]:
        out: list[Any] = []
        for el in _named(body):
            if el.type == "keyed_element":
                key = el.child_by_field_name("key")
                val = el.child_by_field_name("value")
                kn = key.named_children[0] if key is not None and key.named_children else key
                if kn is not None and kn.type in ("interpreted_string_literal", "raw_string_literal"):
                    k = _string_value(kn)
                else:
                    k = _text(kn) if kn is not None else ""
                out.append([k, self.expr(val)])
            elif el.type == "literal_element":
                out.append([None, self.expr(el)])
        return out

    def composite(self, n: Node) -> Ir:
        typ = n.child_by_field_name("type")
        body = n.child_by_field_name("body")
        elems = self.elements(body) if body else []
        return ["comp", _text(typ) if typ else "", elems, n.start_point[0] + 1, n.end_point[0] + 1]

    def func_lit(self, n: Node) -> int:
        idx = len(self.lits)
        self.lits.append({})  # reserve the slot so nested literals get later indexes
        self.lits[idx] = {
            "p": _params(n.child_by_field_name("parameters")),
            "l": n.start_point[0] + 1,
            "e": n.end_point[0] + 1,
            "b": self.body(n.child_by_field_name("body")),
        }
        return idx

    # ------------------------------------------------------------------ statements
    def body(self, block: Node | None) -> list[Any]:
        out: list[Any] = []
        if block is not None:
            self.stmt(block, out)
        return out

    def stmt(self, n: Node, out: list[Any]) -> None:
        t = n.type
        line = n.start_point[0] + 1
        if t in _STMT_CONTAINERS:
            for c in n.named_children:
                self.stmt(c, out)
        elif t == "expression_statement":
            if n.named_children:
                out.append(["x", self.expr(n.named_children[0]), line])
        elif t in ("short_var_declaration", "assignment_statement"):
            left = n.child_by_field_name("left")
            right = n.child_by_field_name("right")
            op = ":="
            for c in n.children:
                if not c.is_named and c.type.endswith("="):
                    op = c.type
            lhs = [self.target(x) for x in _named(left)] if left else []
            rhs = [self.expr(x) for x in _named(right)] if right else []
            out.append(["set", lhs, rhs, line, op])
        elif t in ("var_declaration", "const_declaration"):
            for spec in _specs(n):
                names, typ, values = self.spec(spec)
                out.append(["var", names, typ, values, spec.start_point[0] + 1])
        elif t == "return_statement":
            vals = _named(n.named_children[0]) if n.named_children else []
            if n.named_children and n.named_children[0].type != "expression_list":
                vals = n.named_children
            out.append(["ret", [self.expr(v) for v in vals], line])
        elif t in ("go_statement", "defer_statement"):
            if n.named_children:
                out.append(["x", self.expr(n.named_children[0]), line])
        elif t == "send_statement":
            out.append(["x", self.expr(n.child_by_field_name("channel")), line])
            out.append(["x", self.expr(n.child_by_field_name("value")), line])
        elif t == "if_statement":
            for field in ("initializer", "condition", "consequence", "alternative"):
                part = n.child_by_field_name(field)
                if part is not None:
                    self._stmt_or_expr(part, out)
        elif t == "for_statement":
            for c in n.named_children:
                if c.type == "for_clause":
                    for f in c.named_children:
                        self._stmt_or_expr(f, out)
                elif c.type == "range_clause":
                    left = c.child_by_field_name("left")
                    rng = self.expr(c.child_by_field_name("right"))
                    lhs = [self.expr(x) for x in left.named_children] if left else []
                    out.append(["set", lhs, [["rng", rng]], line, "range"])
                else:
                    self._stmt_or_expr(c, out)
        elif t in ("receive_statement", "inc_statement", "dec_statement"):
            for c in n.named_children:
                self._stmt_or_expr(c, out)
        elif t.endswith("_statement") or t in ("type_declaration", "comment"):
            for c in n.named_children:
                if c.type in _STMT_CONTAINERS or c.type.endswith("_statement") or c.type == "block":
                    self.stmt(c, out)
        else:
            self._stmt_or_expr(n, out)

    def _stmt_or_expr(self, n: Node, out: list[Any]) -> None:
        if n.type.endswith("_statement") or n.type in _STMT_CONTAINERS or n.type.endswith("declaration"):
            self.stmt(n, out)
        elif n.type == "expression_list":
            for c in n.named_children:
                out.append(["x", self.expr(c), n.start_point[0] + 1])
        else:
            out.append(["x", self.expr(n), n.start_point[0] + 1])

    def spec(self, spec: Node) -> tuple[list[str], str | None, list[Ir]]:
        names: list[str] = []
        typ: str | None = None
        values: list[Ir] = []
        for i, c in enumerate(spec.children):
            field = spec.field_name_for_child(i)
            if field == "name":
                names.append(_text(c))
            elif field == "type":
                typ = _text(c)
            elif field == "value":
                values = [self.expr(v) for v in _named(c)]
        return names, typ, values


def _specs(decl: Node) -> list[Node]:
    out: list[Node] = []
    for c in decl.named_children:
        if c.type in ("var_spec", "const_spec"):
            out.append(c)
        elif c.type in ("var_spec_list", "const_spec_list"):
            out.extend(x for x in c.named_children if x.type in ("var_spec", "const_spec"))
    return out


def _params(plist: Node | None) -> list[list[str]]:
    out: list[list[str]] = []
    if plist is None:
        return out
    for p in plist.named_children:
        if p.type not in ("parameter_declaration", "variadic_parameter_declaration"):
            continue
        typ = p.child_by_field_name("type")
        tt = _text(typ) if typ else ""
        if p.type == "variadic_parameter_declaration":
            tt = "..." + tt  # ``opts ...Option``: the arguments from here on, as one slice
        names = [_text(c) for i, c in enumerate(p.children) if p.field_name_for_child(i) == "name"]
        for name in names or ["_"]:
            out.append([name, tt])
    return out


def _doc(node: Node, lines: list[bytes]) -> str | None:
    """The comment block that ends on the line right above ``node`` (a Go doc comment)."""
    parts: list[str] = []
    expect = node.start_point[0] - 1
    prev = node.prev_sibling
    while prev is not None and prev.type == "comment" and prev.end_point[0] == expect:
        parts.append(_text(prev))
        expect = prev.start_point[0] - 1
        prev = prev.prev_sibling
    if not parts:
        return None
    out: list[str] = []
    for c in reversed(parts):
        if c.startswith("//"):
            out.append(c[3:] if c.startswith("// ") else c[2:])
        else:
            out.extend(x.strip().lstrip("*").strip() for x in c[2:-2].splitlines())
    text = "\n".join(out).strip()
    return text or None


def _type_name(text: str) -> str:
    """``*pkg.Store[T]`` -> ``Store``: the bare receiver type name."""
    t = text.lstrip("*").strip()
    t = t.split("[", 1)[0]
    return t.rsplit(".", 1)[-1]


def _fields(typ: Node, owner: str, anon: list[dict[str, Any]]) -> list[list[Any]]:
    """The fields of a struct type; a field typed by an inline ``struct { ... }`` (a config section
    written in place: ``Payments struct { URL string `env:"..."` }``) gets a type of its own,
    ``Owner$Field`` (no Go name has a ``$``), appended to ``anon`` so that it is read like a named one."""
    out: list[list[Any]] = []
    body = typ.named_children[0] if typ.named_children else None
    for fd in body.named_children if body is not None else []:
        if fd.type != "field_declaration":
            continue
        ftype = fd.child_by_field_name("type")
        tag = fd.child_by_field_name("tag")
        tag_text = _string_value(tag) if tag is not None else ""
        names = [_text(c) for i, c in enumerate(fd.children) if fd.field_name_for_child(i) == "name"]
        tt = _text(ftype) if ftype else ""
        if ftype is not None and ftype.type == "struct_type" and len(names) == 1:
            tt = f"{owner}${names[0]}"
            section: dict[str, Any] = {"n": tt, "l": fd.start_point[0] + 1, "e": fd.end_point[0] + 1}
            section.update(doc=None, k="struct", inline=1)
            anon.append(section)
            section["f"] = _fields(ftype, tt, anon)
        if not names:  # embedded field
            out.append(["", tt, tag_text, fd.start_point[0] + 1])
        for nm in names:
            out.append([nm, tt, tag_text, fd.start_point[0] + 1])
    return out


def _struct(fb: _FileBuilder, spec: Node, lines: list[bytes], decl: Node) -> dict[str, Any] | None:
    name = spec.child_by_field_name("name")
    typ = spec.child_by_field_name("type")
    if name is None or typ is None:
        return None
    entry: dict[str, Any] = {
        "n": _text(name),
        "l": spec.start_point[0] + 1,
        "e": spec.end_point[0] + 1,
        "doc": _doc(decl if len(decl.named_children) == 1 else spec, lines),
        "k": "struct"
        if typ.type == "struct_type"
        else ("interface" if typ.type == "interface_type" else "other"),
        "f": [],
    }
    if typ.type == "struct_type":
        entry["f"] = _fields(typ, entry["n"], entry.setdefault("anon", []))
    elif typ.type == "interface_type":
        entry["m"] = [
            _text(m.named_children[0])
            for m in typ.named_children
            if m.type == "method_elem" and m.named_children
        ]
    return entry


_MAJOR = re.compile(r"^v\d+$")
#: Packages whose name differs from their import path's last segment.
_PKG_NAMES = {"amqp091-go": "amqp", "mongo-go-driver": "mongo", "go-micro.dev": "micro"}


def _import_alias(path: str) -> str:
    """The name an unaliased import is used by: its package name, guessed from the path."""
    segs = [s for s in path.split("/") if s]
    while len(segs) > 1 and segs[-1][:1] == "v" and segs[-1][1:].isdigit():
        segs.pop()
    last = segs[-1] if segs else path
    if last in _PKG_NAMES:
        return _PKG_NAMES[last]
    last = last.split(".v", 1)[0] if last.rsplit(".v", 1)[-1].isdigit() else last
    for prefix in ("go-",):
        last = last.removeprefix(prefix)
    for suffix in ("-go", ".go", "-golang"):
        last = last.removesuffix(suffix)
    return last.replace("-", "_").replace(".", "_")


def parse_go(text: str) -> dict[str, Any]:
    """Parse one Go file into the intermediate form (see the module docstring)."""
    data = text.encode("utf-8", "replace")
    # a declaration closing the file without a final newline is a syntax error to the grammar
    tree = _PARSER.parse(data if data.endswith(b"\n") else data + b"\n")
    root = tree.root_node
    lines = data.split(b"\n")
    fb = _FileBuilder()
    out: dict[str, Any] = {"pkg": "", "imports": {}, "vars": [], "types": [], "funcs": [], "lits": fb.lits}
    for node in root.named_children:
        t = node.type
        if t == "package_clause":
            out["pkg"] = _text(node.named_children[0]) if node.named_children else ""
        elif t == "import_declaration":
            for spec in node.named_children:
                specs = spec.named_children if spec.type == "import_spec_list" else [spec]
                for s in specs:
                    if s.type != "import_spec":
                        continue
                    p = s.child_by_field_name("path")
                    nm = s.child_by_field_name("name")
                    path = _string_value(p) if p else ""
                    alias = _text(nm) if nm is not None else _import_alias(path)
                    if alias in ("_", "."):  # blank and dot imports: keep each (drivers matter)
                        alias += path
                    out["imports"][alias] = path
                    version = path.rstrip("/").rsplit("/", 1)[-1]
                    if nm is None and _MAJOR.match(version):  # api/orders/v1 is often package v1
                        out["imports"].setdefault(version, path)
        elif t in ("const_declaration", "var_declaration"):
            for spec in _specs(node):
                names, vtype, values = fb.spec(spec)
                for i, vname in enumerate(names):
                    val = values[i] if i < len(values) else (values[0] if len(values) == 1 else None)
                    out["vars"].append([vname, val, vtype, spec.start_point[0] + 1, t[0]])
        elif t == "type_declaration":
            for spec in node.named_children:
                if spec.type == "type_spec":
                    st = _struct(fb, spec, lines, node)
                    if st is not None:
                        inline = st.pop("anon", [])
                        out["types"].append(st)
                        out["types"].extend(inline)
        elif t in ("function_declaration", "method_declaration"):
            out["funcs"].append(_func(fb, node, lines))
    out["calls"] = sorted(fb.calls)
    out["entrypoint"] = out["pkg"] == "main" and any(
        f["n"] == "main" and f["r"] is None for f in out["funcs"]
    )
    if root.has_error:
        out["warnings"] = ["syntax errors: extracted what parsed"]
    return out


def _func(fb: _FileBuilder, node: Node, lines: list[bytes]) -> dict[str, Any]:
    name = node.child_by_field_name("name")
    recv_type: str | None = None
    recv_name = ""
    if node.type == "method_declaration":
        rp = _params(node.child_by_field_name("receiver"))
        if rp:
            recv_name, rt = rp[0]
            recv_type = _type_name(rt)
    res = node.child_by_field_name("result")
    return {
        "n": _text(name) if name else "",
        "r": recv_type,
        "rn": recv_name,
        "p": _params(node.child_by_field_name("parameters")),
        "res": _text(res) if res is not None else "",
        "l": node.start_point[0] + 1,
        "e": node.end_point[0] + 1,
        "doc": _doc(node, lines),
        "b": fb.body(node.child_by_field_name("body")),
    }
