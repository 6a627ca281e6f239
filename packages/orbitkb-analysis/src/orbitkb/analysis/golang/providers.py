"""Constructors found by the type they return, the way DI containers (fx, dig, wire) wire a program.

A function nobody calls (``RegisterRoutes(g *gin.RouterGroup, h *Handler)`` handed to
``fx.Invoke``, a wire injector's argument) receives its parameters from the one constructor of the
service that returns that type (``NewAPIGroup(e *gin.Engine) *gin.RouterGroup``). The interpreter
asks this index for it, so a router group keeps its prefix and a client keeps its base URL.
"""

from __future__ import annotations

import posixpath
import re

from orbitkb.analysis.golang.program import FuncKey, Program
from orbitkb.analysis.golang.tables import LIBS, TYPES, normalize_import

TypeKey = tuple[str, str]  # (own package dir or external import path, type name)

_NAMED = re.compile(r"^\*?(?:(\w+)\.)?(\w+)$")


def _first_result(res: str) -> str:
    text = res.strip()
    if text.startswith("("):
        text = text[1:].split(",", 1)[0].rsplit(")", 1)[0].strip()
        parts = text.split()
        text = parts[-1] if parts else ""  # a named result: ``(g *gin.RouterGroup, err error)``
    return text


def type_key(prog: Program, typ: str, path: str) -> TypeKey | None:
    """Where a named type comes from: ``*gin.RouterGroup`` in a file importing gin -> (gin's path,
    RouterGroup); ``*Handler`` -> (the file's package dir, Handler). Only the service's own types
    and the library objects of ``tables.TYPES``: never builtins, requests or contexts."""
    m = _NAMED.match(typ.strip().split("[", 1)[0])
    if m is None:
        return None
    alias, name = m.group(1), m.group(2)
    if alias is None:
        d = posixpath.dirname(path)
        return (d, name) if (d, name) in prog.types else None
    if not name[:1].isupper():
        return None
    imp = prog.files.get(path, {}).get("imports", {}).get(alias)
    if imp is None:
        return None
    own = prog.import_dir(imp)
    if own is not None:
        return (own, name) if (own, name) in prog.types else None
    lib = normalize_import(imp)
    return (lib, name) if (LIBS.get(lib, ""), name) in TYPES else None  # routers, clients, producers


class Providers:
    """Plain functions by the type of their first result (built once per service)."""

    def __init__(self, prog: Program, foreign: frozenset[str] = frozenset()) -> None:
        self.prog = prog
        self._by_type: dict[TypeKey, list[FuncKey]] = {}
        for key, (path, f) in prog.funcs.items():
            if key[1] or key[2] in ("main", "init") or not f["res"] or path in foreign:
                continue  # another service's constructors are called by name, never injected
            tk = type_key(prog, _first_result(f["res"]), path)
            if tk is not None:
                self._by_type.setdefault(tk, []).append(key)

    def of(self, typ: str, path: str, asking: object) -> FuncKey | None:
        """The one constructor of ``typ`` (seen from ``path``), never the asking function itself."""
        tk = type_key(self.prog, typ, path)
        if tk is None:
            return None
        found = [k for k in self._by_type.get(tk, ()) if k != asking]
        return found[0] if len(found) == 1 else None
