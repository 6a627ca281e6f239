"""One Rust file's items as the cached parse output: functions, structs, constants, impls.

An attribute is kept as ``[name, strings, pairs, line]``: ``#[get("/x")]`` is ``["get", ["/x"], {}, 3]``,
``#[route("/x", method = "GET")]`` is ``["route", ["/x"], {"method": ["GET"]}, 3]`` (a key may
repeat), ``#[sea_orm(table_name = "orders")]`` is ``["sea_orm", [], {"table_name": ["orders"]}, 3]``.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.rust.syntax import Node, _Reader, _string
from orbitkb.analysis.treesitter import line as _line
from orbitkb.analysis.treesitter import text as _text

_ENTRY_ATTRS = ("main", "launch")  # #[tokio::main], #[actix_web::main], #[rocket::launch]...


def _attribute(node: Node) -> list[Any]:
    attr = next((c for c in node.named_children if c.type == "attribute"), None)
    if attr is None:
        return ["", [], {}, _line(node)]
    name = _text(attr.named_children[0]) if attr.named_children else ""
    tokens = next((c for c in attr.named_children if c.type == "token_tree"), None)
    strings: list[str] = []
    pairs: dict[str, list[str]] = {}
    value = attr.child_by_field_name("value")
    if value is not None and value.type in ("string_literal", "raw_string_literal"):
        strings.append(_string(value))  # #[doc = "..."]
    children = list(tokens.children) if tokens is not None else []
    for i, child in enumerate(children):
        if child.type not in ("string_literal", "raw_string_literal", "identifier"):
            continue
        before = children[i - 1] if i > 0 else None
        after = children[i + 1] if i + 1 < len(children) else None
        key = children[i - 2] if i > 1 else None
        literal = child.type.endswith("literal")
        if before is not None and _text(before) == "=" and key is not None:
            pairs.setdefault(_text(key), []).append(_string(child) if literal else _text(child))
        elif after is None or _text(after) != "=":
            strings.append(_string(child) if literal else _text(child))  # #[derive(A, B)] names too
    return [name, strings, pairs, _line(node)]


def _is_test(attrs: list[list[Any]]) -> bool:
    for name, strings, *_ in attrs:
        short = name.rsplit("::", 1)[-1]
        if short == "test" or (short == "cfg" and "test" in strings):
            return True
    return False


def _type_name(node: Node | None) -> str:
    text = _text(node).split("<", 1)[0].strip()
    return text.rsplit("::", 1)[-1]


class _Extractor:
    def __init__(self) -> None:
        self.reader = _Reader()
        self.out: dict[str, Any] = {
            "fns": [], "structs": [], "consts": {}, "impls": [], "macros": [], "uses": [], "mods": [],
            "entrypoint": False,
        }  # fmt: skip

    def items(self, node: Node, owner: str | None = None, trait: str | None = None, module: str = "") -> None:
        attrs: list[list[Any]] = []
        for child in node.named_children:
            kind = child.type
            if kind == "attribute_item":
                attrs.append(_attribute(child))
                continue
            if _is_test(attrs):
                pass  # #[cfg(test)] modules and #[test] functions: a crate's unit tests live beside its code
            elif kind == "function_item":
                self.function(child, attrs, owner, trait, module)
            elif kind == "impl_item":
                self.impl(child, module)
            elif kind == "mod_item":
                body = child.child_by_field_name("body")
                name = _text(child.child_by_field_name("name"))
                if body is not None:
                    self.items(body, module=f"{module}::{name}" if module else name)
                elif not module and owner is None:
                    self.out["mods"].append(name)  # ``mod client;``: a module file of this crate's tree
            elif kind == "use_declaration":
                self.out["uses"].append(_text(child)[:500])
            elif kind == "struct_item":
                self.struct(child, attrs)
            elif kind in ("const_item", "static_item"):
                value = child.child_by_field_name("value")
                if value is not None:
                    self.out["consts"][_text(child.child_by_field_name("name"))] = self.reader.expr(value)
            elif kind in ("macro_invocation", "expression_statement"):
                mac = child if kind == "macro_invocation" else next(
                    (c for c in child.named_children if c.type == "macro_invocation"), None
                )
                if mac is not None:
                    self.out["macros"].append(
                        [_text(mac.child_by_field_name("macro")), _text(mac)[:20000], _line(mac), mac.end_point[0] + 1]
                    )
            if kind not in ("line_comment", "block_comment"):
                attrs = []

    def function(self, node: Node, attrs: list[list[Any]], owner: str | None, trait: str | None, module: str) -> None:
        name = _text(node.child_by_field_name("name"))
        params = []
        plist = node.child_by_field_name("parameters")
        for p in plist.named_children if plist is not None else []:
            if p.type == "parameter":
                params.append([_text(p.child_by_field_name("pattern")).removeprefix("mut "),
                               _text(p.child_by_field_name("type"))])  # fmt: skip
        stmts, tail = self.reader.block(node.child_by_field_name("body"))
        self.out["fns"].append({
            "name": name, "line": _line(node), "end": node.end_point[0] + 1, "attrs": attrs, "owner": owner,
            "trait": trait, "module": module, "params": params, "stmts": stmts, "tail": tail,
            "ret": _text(node.child_by_field_name("return_type"))[:80],
        })  # fmt: skip
        if owner is None and any(a[0].rsplit("::", 1)[-1] in _ENTRY_ATTRS for a in attrs):
            self.out["entrypoint"] = True  # #[tokio::main] / #[actix_web::main] / #[launch]: a long-running program
        elif owner is None and name == "main" and not self.out["entrypoint"]:
            self.out["entrypoint"] = None  # a plain main: an entry point when the file starts a server (analyzer)

    def impl(self, node: Node, module: str) -> None:
        type_name = _type_name(node.child_by_field_name("type"))
        trait_node = node.child_by_field_name("trait")
        trait = _text(trait_node).split("<", 1)[0] if trait_node is not None else None
        if trait:
            self.out["impls"].append([trait, type_name, _line(node)])
        body = node.child_by_field_name("body")
        if body is not None:
            self.items(body, owner=type_name, trait=trait, module=module)

    def struct(self, node: Node, attrs: list[list[Any]]) -> None:
        fields = []
        body = node.child_by_field_name("body")
        pending: list[list[Any]] = []
        for child in body.named_children if body is not None else []:
            if child.type == "attribute_item":
                pending.append(_attribute(child))
            elif child.type == "field_declaration":
                fields.append([_text(child.child_by_field_name("name")), _text(child.child_by_field_name("type")),
                               pending])  # fmt: skip
                pending = []
        self.out["structs"].append({
            "name": _text(node.child_by_field_name("name")), "line": _line(node), "end": node.end_point[0] + 1,
            "attrs": attrs, "fields": fields,
        })  # fmt: skip


def extract(root: Node) -> dict[str, Any]:
    ex = _Extractor()
    ex.items(root)
    return ex.out
