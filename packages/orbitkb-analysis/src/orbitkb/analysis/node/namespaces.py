"""TypeScript namespaces as holders of names: `namespace OrderPlaced { export const topic = "x" }`.

A contracts library often spells each message or route as a namespace of constants and helpers
(`OrderPlaced.topic`, `GetOrder.url`, `GetOrder.getUrl(id)`). Each member is bound under its
qualified name, like an enum member, so `OrderPlaced.topic` folds to its string here and in the
modules that import the namespace. Inside the namespace its members are visible unqualified, so a
member is also bound by its own name unless the module already binds that name.
"""

from __future__ import annotations

from tree_sitter import Node

from .extractor import Extractor
from .syntax import text, unwrap

#: the node types of `namespace X {}` / `module X {}` (tree-sitter-typescript)
NAMESPACE_TYPES = frozenset({"internal_module", "module"})


def bind_namespace(ex: Extractor, node: Node, outer: str = "") -> None:
    """Bind the members of the namespace ``node`` (nested namespaces by their dotted name)."""
    name = text(node.child_by_field_name("name"))
    body = node.child_by_field_name("body")
    if not name or body is None:
        return
    qualified = f"{outer}.{name}" if outer else name
    ex.scope.bind(qualified, {"k": "obj", "t": "object", "key": qualified})
    for stmt in body.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None:
            continue
        if decl.type in NAMESPACE_TYPES:
            bind_namespace(ex, decl, qualified)
        elif decl.type in ("lexical_declaration", "variable_declaration"):
            for declarator in decl.named_children:
                _bind_member(ex, qualified, declarator)
        elif decl.type in ("function_declaration", "generator_function_declaration"):
            member = text(decl.child_by_field_name("name"))
            if member:
                _bind(ex, qualified, member, {"k": "fn", "fid": ex.fid_for(decl)})


def _bind_member(ex: Extractor, qualified: str, declarator: Node) -> None:
    if declarator.type != "variable_declarator":
        return
    name_node = declarator.child_by_field_name("name")
    value = unwrap(declarator.child_by_field_name("value"))
    if name_node is None or name_node.type != "identifier" or value is None:
        return
    member = text(name_node)
    binding = ex.binding_for(value, f"{qualified}.{member}")
    if binding is not None:
        _bind(ex, qualified, member, binding)


def _bind(ex: Extractor, qualified: str, member: str, binding: dict[str, object]) -> None:
    key = f"{qualified}.{member}"
    binding.setdefault("key", key)
    ex.scope.bind(key, binding)
    if ex.scope.lookup(member) is None:  # the namespace's own code reads it unqualified
        ex.scope.bind(member, dict(binding))
