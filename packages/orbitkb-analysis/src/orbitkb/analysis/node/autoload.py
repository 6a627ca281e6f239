"""Fastify's autoloader: `app.register(AutoLoad, { dir: path.join(__dirname, "routes") })` registers
every plugin file under that folder, each prefixed by its sub-folder (`routes/orders/index.js`
serves its `/` at `/orders`; files directly in `routes/` have no prefix), after the loader's own
`options.prefix`.

The extractor notes the folder (``note``); the route graph gives each autoloaded plugin's first
parameter its prefix (``prefixes``).
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .resolve import Resolver, join_path, path_text
from .syntax import args_of, dotted, object_pairs, string_value, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

KEY = "autoload"
MODULES = frozenset({"@fastify/autoload", "fastify-autoload"})
#: path helpers that join `__dirname` with literal segments
_JOINS = ("join", "resolve")


def note(ex: Extractor, plugin: list[Any] | None, args: list[Node]) -> bool:
    """`register(AutoLoad, { dir, options: { prefix } })`: the folder, relative to this file."""
    if plugin is None or plugin[0] != "imp" or plugin[1] not in MODULES or len(args) < 2:
        return False
    opts = object_pairs(args[1])
    folder = _folder(opts.get("dir"))
    if folder is None:
        return True
    inner = object_pairs(opts.get("options"))
    prefix = fold(inner["prefix"], ex.scope) if "prefix" in inner else []
    ex.out.setdefault(KEY, []).append({"dir": folder, "prefix": prefix})
    return True


def prefixes(files: Mapping[str, dict[str, Any]], resolver: Resolver) -> dict[tuple[Any, ...], str]:
    """The route-graph node of each autoloaded plugin (its first parameter) -> its prefix."""
    out: dict[tuple[Any, ...], str] = {}
    for file in sorted(files):
        for load in files[file].get(KEY, []):
            root = posixpath.normpath(posixpath.join(posixpath.dirname(file), load["dir"]))
            base = path_text(resolver.expr(file, load["prefix"])) if load["prefix"] else ""
            for path in sorted(files):
                if not path.startswith(root + "/"):
                    continue
                plugin = resolver.export(path, "default")
                if plugin is None or plugin[0] != "fn":
                    continue
                folder = posixpath.dirname(path)[len(root) :]
                out[("param", plugin[1], plugin[2], 0)] = join_path(base, folder)
    return out


def _folder(node: Node | None) -> str | None:
    """`path.join(__dirname, "routes")` / `join(__dirname, "api", "routes")` -> "routes"."""
    call = unwrap(node)
    if call is None or call.type != "call_expression":
        return None
    name = dotted(call.child_by_field_name("function")) or ""
    args = args_of(call)
    if name.rsplit(".", 1)[-1] not in _JOINS or not args or dotted(args[0]) != "__dirname":
        return None
    segments = [string_value(a) for a in args[1:]]
    if not segments or any(s is None for s in segments):
        return None
    return posixpath.normpath(posixpath.join(*[s for s in segments if s is not None]))
