"""Symfony routes and Doctrine mappings written as PHP 8 attributes (``#[Route('/x', methods:
['GET'])]``, ``#[ORM\\Table(name: 'x')]``) or as docblock annotations (``@Route("/x",
methods={"GET"})``, ``@ORM\\Table(name="x")``)."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.php.syntax import (
    attributes,
    named_args,
    positional,
    string,
    strings,
)  # fmt: skip
from orbitkb.analysis.treesitter import text

_ROUTE_VERBS = {"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE"}
_DOC_ROUTE = re.compile(r"@(?:[\w\\]*\\)?(Route|Get|Post|Put|Patch|Delete)\s*\(([^)]*)\)")
_DOC_ENTITY = re.compile(r"@(?:ORM\\|Doctrine\\ORM\\Mapping\\)?Entity\b")
_DOC_TABLE = re.compile(r"@(?:ORM\\)?Table\s*\([^)]*?name\s*=\s*\"([^\"]+)\"")
_DOC_ARG = re.compile(r"""(?:(\w+)\s*=\s*)?(\{[^}]*\}|"[^"]*")""")


def _doc_routes(doc: str) -> list[tuple[str, str]]:
    """(methods or "", path) of each route annotation in a docblock."""
    out = []
    for kind, body in _DOC_ROUTE.findall(doc):
        path, methods = None, []
        for key, value in _DOC_ARG.findall(body):
            if value.startswith('"') and key in ("", "path", "value") and path is None:
                path = value.strip('"')
            elif key == "methods":
                methods = re.findall(r'"(\w+)"', value)
        if kind in _ROUTE_VERBS:
            methods = [_ROUTE_VERBS[kind]]
        out.append((",".join(m.upper() for m in methods), path or ""))
    return out


def _attr_routes(attrs: list[tuple[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for name, attr in attrs:
        if name not in ("Route", *_ROUTE_VERBS):
            continue
        named = named_args(attr)
        pos = positional(attr)
        path = string(named.get("path")) if "path" in named else (string(pos[0]) if pos else "")
        methods = strings(named["methods"]) if "methods" in named else []
        if name in _ROUTE_VERBS:
            methods = [_ROUTE_VERBS[name]]
        out.append((",".join(m.upper() for m in methods), path or ""))
    return out


def class_route_prefix(attrs: list[tuple[str, Any]], doc: str) -> str:
    routes = _attr_routes(attrs) or _doc_routes(doc)
    return routes[0][1] if routes else ""


def method_routes(attrs: list[tuple[str, Any]], doc: str) -> list[tuple[str, str]]:
    """(method, path) of a controller action; no methods means any method."""
    out = []
    for methods, path in _attr_routes(attrs) or _doc_routes(doc):
        for method in methods.split(",") if methods else ["ANY"]:
            out.append((method, path))
    return out


def doctrine_entity(attrs: list[tuple[str, Any]], doc: str) -> dict[str, Any] | None:
    names = {n for n, _ in attrs}
    if "Entity" not in names and not _DOC_ENTITY.search(doc):
        return None
    table = None
    for name, attr in attrs:
        if name == "Table":
            named = named_args(attr)
            table = string(named["name"]) if "name" in named else (string(positional(attr)[0]) if positional(attr) else None)
    if table is None and (m := _DOC_TABLE.search(doc)):
        table = m.group(1)
    return {"table": table, "mongo": False}


def doctrine_field(prop: Any) -> list[Any] | None:
    """[name, type, nullable, primary key] of a mapped property (``#[ORM\\Column]`` / ``@ORM\\Column``)."""
    attrs = dict(attributes(prop))
    prev = prop.prev_named_sibling
    doc = text(prev) if prev is not None and prev.type == "comment" else ""
    if "Column" not in attrs and "@ORM\\Column" not in doc and "@Column" not in doc:
        return None
    el = next((c for c in prop.named_children if c.type == "property_element"), None)
    if el is None or not el.named_children:
        return None
    name = text(el.named_children[0]).lstrip("$")
    col_type = ""
    if "Column" in attrs and "type" in named_args(attrs["Column"]):
        col_type = text(named_args(attrs["Column"])["type"]).strip("'\"").rsplit("::", 1)[-1].lower()
    elif m := re.search(r'@(?:ORM\\)?Column\([^)]*type\s*=\s*"(\w+)"', doc):
        col_type = m.group(1)
    typed = next((c for c in prop.named_children if c.type in ("primitive_type", "optional_type", "named_type")), None)
    if not col_type and typed is not None:
        col_type = text(typed).lstrip("?")
    nullable = "nullable: true" in text(prop) or "nullable=true" in doc.replace(" ", "") or (
        typed is not None and typed.type == "optional_type"
    )
    pk = "Id" in attrs or "@ORM\\Id" in doc or "@Id" in doc
    return [name, col_type, bool(nullable), bool(pk)]
