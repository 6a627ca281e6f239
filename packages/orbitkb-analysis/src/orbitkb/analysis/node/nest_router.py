"""NestJS `RouterModule.register([{ path: "admin", module: AdminModule, children: [...] }])`: the
path is a prefix of every controller the named module declares (`@Module({ controllers: [...] })`),
children nest under their parent's path.

The extractor records each module's controllers (``on_module``) and each route table
(``on_register``); ``prefixes`` gives the linker each controller class's router path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .resolve import Resolver, join_path, path_text
from .syntax import object_pairs, text, unwrap
from .values import fold, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

MODULES = "nest_modules"
ROUTES = "nest_router"
OPAQUE = "nest_modules_opaque"
#: the RouterModule calls that take a route table
REGISTER = ("RouterModule.register", "RouterModule.forRoutes")
_MAX_DEPTH = 6


def on_module(ex: Extractor, cls: str, args: list[Node]) -> None:
    """`@Module({ controllers: [A, B] })` on ``cls``: its controllers, as references (none when it
    lists none); a list not written out (`controllers: CONTROLLERS`, `...more`) makes the file opaque."""
    options = unwrap(args[0]) if args else None
    pairs = object_pairs(options)
    listed = unwrap(pairs.get("controllers"))
    if (options is not None and options.type != "object") or (listed is not None and listed.type != "array"):
        ex.out[OPAQUE] = True
        return
    items = [c for c in listed.named_children if c.type != "comment"] if listed is not None else []
    refs = [value_ref(c, ex.scope) for c in items]
    if any(r is None for r in refs):
        ex.out[OPAQUE] = True
    ex.out.setdefault(MODULES, {})[cls] = [r for r in refs if r is not None]


def on_object(ex: Extractor, node: Node) -> None:
    """`{ module: X, controllers: [...] }` returned by a dynamic module (or any object but a
    `@Module()` argument naming controllers): which controllers are served is not read here."""
    if "controllers" not in object_pairs(node):
        return
    call = node.parent.parent if node.parent is not None else None
    if (
        call is None
        or call.type != "call_expression"
        or call.parent is None
        or call.parent.type != "decorator"
    ):
        ex.out[OPAQUE] = True


def served(files: Mapping[str, dict[str, Any]], resolver: Resolver) -> set[tuple[str, str]] | None:
    """(file, class) of every controller a `@Module()` of the service registers; None when that
    cannot be told (no module lists a controller, a list not written out, a dynamic module, an
    unresolved name)."""
    if any(data.get(OPAQUE) for data in files.values()):
        return None
    out: set[tuple[str, str]] = set()
    for file in sorted(files):
        for refs in files[file].get(MODULES, {}).values():
            for ref in refs:
                ctrl = resolver.resolve(file, ref)
                if ctrl is None or ctrl[0] != "cls":
                    return None
                out.add((str(ctrl[1]), str(ctrl[2])))
    return out or None


def on_register(ex: Extractor, args: list[Node]) -> None:
    """A route table: one record per module, with the parts of each path segment down to it."""
    table = unwrap(args[0]) if args else None
    if table is not None and table.type == "identifier":  # `const routes: Routes = [...]` in the module
        table = _declared(table, text(table))
    for record in _walk(ex, table, [], 0):
        ex.out.setdefault(ROUTES, []).append(record)


def _walk(ex: Extractor, table: Node | None, above: list[Any], depth: int) -> list[dict[str, Any]]:
    if table is None or table.type != "array" or depth > _MAX_DEPTH:
        return []
    out: list[dict[str, Any]] = []
    for item in (unwrap(c) for c in table.named_children if c.type != "comment"):
        if item is None:
            continue
        if item.type != "object":  # `children: [OrdersModule]`: under the parent's path, no own
            ref = value_ref(item, ex.scope)
            if ref is not None:
                out.append({"module": ref, "path": above})
            continue
        pairs = object_pairs(item)
        path = [*above, fold(pairs["path"], ex.scope)] if "path" in pairs else above
        module = value_ref(pairs["module"], ex.scope) if "module" in pairs else None
        if module is not None:
            out.append({"module": module, "path": path})
        out.extend(_walk(ex, unwrap(pairs.get("children")), path, depth + 1))
    return out


def _declared(node: Node, name: str) -> Node | None:
    """The value of the top-level `const name = ...` of the module holding ``node``."""
    root = node
    while root.parent is not None:
        root = root.parent
    for stmt in root.named_children:
        decl = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if decl is None or decl.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in decl.named_children:
            if (
                declarator.type == "variable_declarator"
                and text(declarator.child_by_field_name("name")) == name
            ):
                return unwrap(declarator.child_by_field_name("value"))
    return None


def prefixes(files: Mapping[str, dict[str, Any]], resolver: Resolver) -> dict[tuple[str, str], list[str]]:
    """(file, controller class) -> the router paths its module is registered under."""
    out: dict[tuple[str, str], list[str]] = {}
    for file in sorted(files):
        for record in files[file].get(ROUTES, []):
            module = resolver.resolve(file, record["module"])
            if module is None or module[0] != "cls":
                continue
            path = join_path(*(path_text(resolver.expr(file, p)) for p in record["path"]))
            for ref in files.get(str(module[1]), {}).get(MODULES, {}).get(str(module[2]), []):
                ctrl = resolver.resolve(str(module[1]), ref)
                if ctrl is not None and ctrl[0] == "cls":
                    paths = out.setdefault((str(ctrl[1]), str(ctrl[2])), [])
                    if path not in paths:
                        paths.append(path)
    return out
