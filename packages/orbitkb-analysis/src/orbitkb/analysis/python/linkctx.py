"""Shared state of one link() run: the resolver, evaluated call sites, naming and Expr rendering."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeVar, cast

from orbitkb.analysis.facts import Env, Expr, Lit, Part, ServiceContext, Unknown
from orbitkb.analysis.python import importroot
from orbitkb.analysis.python.ir import Node, describe, literal
from orbitkb.analysis.python.resolve import Resolver

_UNSET = object()
_Row = TypeVar("_Row")


class Inv:
    """One recorded call site; callee and arguments are evaluated on first use."""

    __slots__ = ("path", "rec", "fn", "line", "end", "_r", "_callee", "_args", "_kw")

    def __init__(self, r: Resolver, path: str, rec: dict[str, Any]):
        self._r = r
        self.path, self.rec = path, rec
        self.fn: str | None = rec.get("f")
        self.line = rec["l"]
        self.end = rec.get("e", rec["l"])
        self._callee: Node | None = None
        self._args: list[Node] | None = None
        self._kw: dict[str, Node] | None = None

    @property
    def callee(self) -> Node:
        if self._callee is None:
            self._callee = self._r.ev(self.rec["c"])
        return self._callee

    @property
    def args(self) -> list[Node]:
        if self._args is None:
            self._args = [self._r.ev(a) for a in self.rec.get("a", ())]
        return self._args

    @property
    def kw(self) -> dict[str, Node]:
        if self._kw is None:
            self._kw = {k: self._r.ev(v) for k, v in self.rec.get("k", {}).items()}
        return self._kw

    def arg(self, pos: int | None, *names: str) -> Node | None:
        for n in names:
            if n in self.rec.get("k", ()):
                return self.kw[n]
        if pos is not None and pos < len(self.rec.get("a", ())):
            return self.args[pos]
        return None


class LinkState:
    def __init__(self, ctx: ServiceContext, files: Mapping[str, dict[str, Any]]):
        self.ctx = ctx
        self.files = files
        self.r = Resolver(files)
        self.invs: list[Inv] = [Inv(self.r, p, rec) for p in sorted(files) for rec in files[p]["inv"]]
        self.libs = self.r.libs
        self._import_root: object = _UNSET
        self.memo: dict[str, Any] = {}  # results several stages share (Celery tasks)

    # ------------------------------------------------------------------ calls
    def method_calls(self, table: Mapping[tuple[str, str], _Row]) -> Iterator[tuple[Inv, _Row]]:
        """Bound-method calls whose (receiver family, method name) is a row of ``table``, with that row."""
        for inv in self.invs:
            c = inv.callee
            if c["t"] != "bm":
                continue
            row = table.get((self.r.family(self.r.as_object(c["o"])) or "", c["n"]))
            if row is not None:
                yield inv, row

    # ------------------------------------------------------------------ names
    def func(self, path: str, qual: str) -> dict[str, Any]:
        found: dict[str, Any] = self.files[path]["funcs"].get(qual, {})
        return found

    def handler_name(self, path: str, qual: str) -> str:
        """``Class.method`` for methods, the bare name for functions (nested ones included)."""
        info = self.func(path, qual)
        name = qual.rsplit(".", 1)[-1]
        cls = info.get("c")
        return f"{cls.rsplit('.', 1)[-1]}.{name}" if cls else name

    def module_stem(self, path: str) -> str:
        parts = path.rsplit(".", 1)[0].split("/")
        if parts[-1] == "__init__" and len(parts) > 1:
            return parts[-2]
        return parts[-1]

    def component_of(self, path: str, qual: str | None) -> tuple[str, str | None]:
        """(component name, class qualname or None) of code in function ``qual`` of ``path``."""
        cls = self.func(path, qual).get("c") if qual else None
        if cls:
            return cls.rsplit(".", 1)[-1], cls
        return self.module_stem(path), None

    def module_name(self, path: str) -> str:
        """The import name the service itself would use: from the import root its deployment
        command implies, else relative to its root with ``src/`` dropped."""
        if self._import_root is _UNSET:
            self._import_root = importroot.find(self.ctx.commands, self.files) if self.ctx.commands else None
        found = cast("importroot.ImportRoot | None", self._import_root)
        if found is not None:
            named = found.module(path)
            if named is not None:
                return named
        rel = path
        root = self.ctx.root_dir.strip("/")
        if root not in ("", ".") and rel.startswith(root + "/"):
            rel = rel[len(root) + 1 :]
        if rel.startswith("src/"):
            rel = rel[4:]
        stem = rel.rsplit(".", 1)[0]
        parts = stem.split("/")
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join(parts)


def to_expr(r: Resolver, node: Node | None) -> Expr | None:
    if node is None:
        return None
    parts: list[Part] = []
    _walk(r, node, parts, 0)
    merged: list[Part] = []
    for p in parts:
        if isinstance(p, Lit) and merged and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + p.text)
        else:
            merged.append(p)
    return Expr(tuple(merged)) if merged else Expr((Lit(""),))


def _walk(r: Resolver, n: Node, out: list[Part], depth: int) -> None:
    t = n["t"]
    if depth > 12:
        out.append(Unknown(describe(n)))
    elif t == "lit":
        out.append(Lit(n["v"]))
    elif t == "cat":
        for p in n["p"]:
            _walk(r, p, out, depth + 1)
    elif t == "env":
        d = n.get("d")
        dv = r.ev(d) if d is not None else None
        if dv is not None and dv["t"] == "param" and "d" in dv:
            dv = r.ev(dv["d"])
        out.append(Env(n["n"], literal(dv)))
    elif t == "param" and "d" in n and n["d"]["t"] != "none":
        _walk(r, r.ev(n["d"]), out, depth + 1)
    elif t == "or":  # ``param or fallback`` no caller binds: what a caller passing nothing gets
        first = n["v"][0]
        unset = first["t"] == "param" and first.get("d", {}).get("t") == "none"
        _walk(r, n["v"][1] if unset else first, out, depth + 1)
    else:
        out.append(Unknown(describe(n)))


def render_path(expr: Expr | None) -> str:
    """A route path from an Expr: literal text, ``{NAME}`` for env reads, ``{hint}`` otherwise."""
    if expr is None:
        return ""
    out = []
    for p in expr.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Env):
            out.append(p.default if p.default is not None else "{" + p.name + "}")
        else:
            out.append("{" + getattr(p, "hint", "?") + "}")
    return "".join(out)


def normalize_path(path: str) -> str:
    """Leading slash, no duplicate slashes, no trailing slash except the root."""
    while "//" in path:
        path = path.replace("//", "/")
    if not path.startswith("/"):
        path = "/" + path
    if len(path) > 1 and path.endswith("/"):
        path = path.rstrip("/") or "/"
    return path
