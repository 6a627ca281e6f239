"""Settings declared with a convict schema, read back as ``config.get("user.url")``.

``convict({ port: { format: "port", default: "9002", env: "PORT" }, user: { url: { default:
"localhost:9002" } } })``: every leaf (an object with a ``default``) is a setting named by its dotted
path, with the environment variable it is read from (``env``) and its default. Each file records
its schema under ``convict``; the linker gives a ``config.get("user.url")`` of any file of the
service (an environment read named by the key, without a default) the schema's variable and
default (``Resolver.parts``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import object_pairs, string_value, text, unwrap

if TYPE_CHECKING:
    from .extractor import Extractor

KEY = "convict"
MODULE = "convict"
_LEAF_KEYS = frozenset({"default", "format", "doc", "env"})
_MAX_DEPTH = 6


def on_call(ex: Extractor, where: tuple[str, str] | None, args: list[Node]) -> None:
    """`convict(schema)`: the schema's settings, ``dotted key -> [env variable, default]``."""
    if where is None or where[0] != MODULE or where[1] not in ("", "default") or not args:
        return
    settings: dict[str, list[str | None]] = {}
    _walk(unwrap(args[0]), "", settings, 0)
    if settings:
        ex.out.setdefault(KEY, {}).update(settings)


def _walk(node: Node | None, prefix: str, out: dict[str, list[str | None]], depth: int) -> None:
    pairs = object_pairs(node) if node is not None and node.type == "object" else {}
    if not pairs or depth > _MAX_DEPTH:
        return
    if "default" in pairs and set(pairs) <= _LEAF_KEYS | {"nullable", "sensitive", "arg"}:
        default = unwrap(pairs["default"])
        value = string_value(default)
        if value is None and default is not None and default.type == "number":
            value = text(default)
        out[prefix] = [string_value(pairs["env"]) if "env" in pairs else None, value]
        return
    for key, child in pairs.items():
        _walk(unwrap(child), f"{prefix}.{key}" if prefix else key, out, depth + 1)


def settings(files: Mapping[str, dict[str, Any]]) -> dict[str, list[str | None]]:
    """Every convict setting the service's files declare (the first file wins a key)."""
    out: dict[str, list[str | None]] = {}
    for path in sorted(files):
        for key, value in files[path].get(KEY, {}).items():
            out.setdefault(key, value)
    return out
