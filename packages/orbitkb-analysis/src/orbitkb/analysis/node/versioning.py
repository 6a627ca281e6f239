"""NestJS URI versioning: ``app.enableVersioning({ type: VersioningType.URI })`` puts ``/v<version>``
after the global prefix of every route whose controller (``@Controller({ version: '1' })``) or
handler (``@Version('2')``) declares a version, or that takes the ``defaultVersion``;
``VERSION_NEUTRAL`` and unversioned routes keep their path. Header and media-type versioning leave
paths alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import dotted, object_pairs, string_value, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

NEUTRAL = "VERSION_NEUTRAL"
_DEFAULT_PREFIX = "v"


def versions(ex: Extractor, node: Node | None) -> dict[str, Any]:
    """``{"versions": [folded...]}`` or ``{"neutral": True}`` of a version value (a string, a
    constant, an array of them, ``VERSION_NEUTRAL``); empty when there is none."""
    value = unwrap(node) if node is not None else None
    if value is None:
        return {}
    items = [c for c in value.named_children if c.type != "comment"] if value.type == "array" else [value]
    if any((dotted(i) or "").endswith(NEUTRAL) for i in items):
        return {"neutral": True}
    return {"versions": [fold(i, ex.scope) for i in items]}


def controller_versions(ex: Extractor, args: list[Node]) -> dict[str, Any]:
    """The version of ``@Controller({ path, version })``."""
    first = unwrap(args[0]) if args else None
    if first is None or first.type != "object":
        return {}
    return versions(ex, object_pairs(first).get("version"))


def on_enable(ex: Extractor, args: list[Node]) -> None:
    """Record ``enableVersioning(options)`` of the app (URI type only)."""
    options = unwrap(args[0]) if args else None
    pairs = object_pairs(options) if options is not None and options.type == "object" else {}
    kind = pairs.get("type")
    if kind is None or not ((dotted(kind) or "").endswith(".URI") or string_value(kind) == "uri"):
        return
    prefix = pairs.get("prefix")
    record: dict[str, Any] = {
        "default": versions(ex, pairs.get("defaultVersion")),
        "prefix": _DEFAULT_PREFIX if prefix is None else (string_value(prefix) or ""),
    }
    ex.out["uri_versioning"] = record


def config(files: Mapping[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The app's URI versioning options, when it enables URI versioning."""
    return next((d["uri_versioning"] for d in files.values() if d.get("uri_versioning")), None)


def declared(options: Mapping[str, Any] | None, ctrl: Mapping[str, Any], route: Mapping[str, Any]) -> list[Any]:
    """The folded versions a route is served under: the handler's, else its controller's, else the
    default; none when versioning is off or the route is version-neutral."""
    if options is None:
        return []
    found = route.get("version") or ctrl.get("version") or options["default"]
    return [] if not found or found.get("neutral") else list(found.get("versions", ()))


def segments(options: Mapping[str, Any] | None, texts: list[str]) -> list[str]:
    """The path segments (``v1``, ``v2``) of rendered versions; ``[""]`` when there are none."""
    found = sorted({t for t in texts if t})
    return [f"{options['prefix']}{t}" for t in found] if options is not None and found else [""]
