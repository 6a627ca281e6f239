"""Constant folding at parse time: turn an ast expression into an ir node.

f-strings, ``+``, ``%`` and ``str.format`` with literal templates, ``"sep".join([...])``,
``os.getenv(...) or "default"`` are folded here; names become the caller-provided scope value
(a local value, a parameter, or a qualified ``ref`` that link() resolves across modules).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from orbitkb.analysis.python.ir import NONE, Node, cat, lit, unk

#: list/dict literals are capped so a giant table cannot blow up the cache
MAX_ITEMS = 64
MAX_DEPTH = 40

_PCT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[hlL]?([diouxXeEfFgGcrsa%])")
_FMT = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def hint(e: ast.AST) -> str:
    """A cheap source hint (no unparse): dotted names and calls, else the node type."""
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return hint(e.value) + "." + e.attr
    if isinstance(e, ast.Call):
        return hint(e.func) + "()"
    if isinstance(e, ast.Subscript):
        return hint(e.value) + "[]"
    if isinstance(e, ast.Await):
        return hint(e.value)
    return type(e).__name__.lower()


class Builder:
    """Builds ir nodes; ``name`` maps an identifier to its value in the current scope."""

    def __init__(self, name: Callable[[str], Node], path: str = ""):
        self.name = name
        self.path = path

    def build(self, e: ast.AST | None, ident: str | None = None, depth: int = 0) -> Node:
        if e is None:
            return NONE
        if depth > MAX_DEPTH:
            return unk(hint(e))
        d = depth + 1
        t = type(e)
        if t is ast.Constant:
            return _const(e.value)  # type: ignore[attr-defined]
        if t is ast.Name:
            return self.name(e.id)  # type: ignore[attr-defined]
        if t is ast.Attribute:
            base = self.build(e.value, None, d)  # type: ignore[attr-defined]
            if base["t"] == "ref":
                return {"t": "ref", "q": base["q"] + "." + e.attr}  # type: ignore[attr-defined]
            return {"t": "attr", "o": base, "n": e.attr}  # type: ignore[attr-defined]
        if t is ast.JoinedStr:
            return cat([self._fpart(v, d) for v in e.values]) if e.values else lit("")  # type: ignore[attr-defined]
        if t is ast.BinOp:
            return self._binop(e, d)  # type: ignore[arg-type]
        if t is ast.Call:
            return self._call(e, ident, d)  # type: ignore[arg-type]
        if t is ast.Subscript:
            return {"t": "idx", "o": self.build(e.value, None, d), "i": self.build(e.slice, None, d)}  # type: ignore[attr-defined]
        if t is ast.Await or t is ast.Starred or t is ast.NamedExpr:
            return self.build(e.value, ident, d)  # type: ignore[attr-defined]
        if t is ast.BoolOp:
            return self._boolop(e, d)  # type: ignore[arg-type]
        if t is ast.IfExp:
            return self.build(e.body, ident, d)  # type: ignore[attr-defined]
        if t is ast.List or t is ast.Tuple or t is ast.Set:
            return {"t": "list", "v": [self.build(x, None, d) for x in e.elts[:MAX_ITEMS]]}  # type: ignore[attr-defined]
        if t is ast.Dict:
            return self._dict(e, d)  # type: ignore[arg-type]
        return unk(hint(e))

    def _fpart(self, v: ast.AST, d: int) -> Node:
        if isinstance(v, ast.FormattedValue):
            return self.build(v.value, None, d)
        return self.build(v, None, d)

    def _binop(self, e: ast.BinOp, d: int) -> Node:
        if isinstance(e.op, ast.Add):
            return cat([self.build(e.left, None, d), self.build(e.right, None, d)])
        if isinstance(e.op, ast.Mod) and isinstance(e.left, ast.Constant) and isinstance(e.left.value, str):
            return self._percent(e.left.value, e.right, d)
        return unk(hint(e))

    def _boolop(self, e: ast.BoolOp, d: int) -> Node:
        first = self.build(e.values[0], None, d)
        if isinstance(e.op, ast.Or):
            # ``os.getenv("X") or "fallback"``: decided at link time, once the call is known
            return {"t": "or", "v": [first, self.build(e.values[1], None, d)]}
        return first

    def _dict(self, e: ast.Dict, d: int) -> Node:
        out: dict[str, Node] = {}
        for k, v in zip(e.keys[:MAX_ITEMS], e.values[:MAX_ITEMS]):
            if isinstance(k, ast.Constant) and isinstance(k.value, str):
                out[k.value] = self.build(v, None, d)
        return {"t": "dict", "v": out}

    def _call(self, e: ast.Call, ident: str | None, d: int) -> Node:
        f = e.func
        if (
            isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Constant)
            and isinstance(f.value.value, str)
        ):
            if f.attr == "format":
                return self._format(f.value.value, e, d)
            if f.attr == "join" and e.args and isinstance(e.args[0], (ast.List, ast.Tuple)):
                sep, parts = lit(f.value.value), []
                for i, x in enumerate(e.args[0].elts):
                    parts.extend([sep, self.build(x, None, d)] if i else [self.build(x, None, d)])
                return cat(parts) if parts else lit("")
        if (
            isinstance(f, ast.Attribute)
            and f.attr in ("rstrip", "strip", "lstrip")
            and all(isinstance(a, ast.Constant) for a in e.args)
        ):
            # base_url.rstrip("/") is still the base URL for our purposes
            return self.build(f.value, None, d)
        node: Node = {
            "t": "call",
            "f": self.build(f, None, d),
            "a": [self.build(a, None, d) for a in e.args[:8]],
            "k": {k.arg: self.build(k.value, None, d) for k in e.keywords if k.arg},
        }
        if ident:
            node["id"] = ident
        if _last_name(f) in POSITIONED:
            node["at"] = [self.path, e.lineno, e.end_lineno or e.lineno]
        return node

    def _percent(self, template: str, right: ast.AST, d: int) -> Node:
        if isinstance(right, ast.Tuple):
            seq = [self.build(x, None, d) for x in right.elts]
        else:
            seq = [self.build(right, None, d)]
        named = self.build(right, None, d) if isinstance(right, ast.Dict) else None
        parts: list[Node] = []
        pos, i = 0, 0
        for m in _PCT.finditer(template):
            parts.append(lit(template[pos : m.start()]))
            pos = m.end()
            if m.group(2) == "%":
                parts.append(lit("%"))
            elif m.group(1) and named is not None:
                parts.append(named["v"].get(m.group(1), unk(m.group(1))))
            else:
                parts.append(seq[i] if i < len(seq) else unk("%"))
                i += 1
        parts.append(lit(template[pos:]))
        return cat(parts)

    def _format(self, template: str, e: ast.Call, d: int) -> Node:
        pos_args = [self.build(a, None, d) for a in e.args]
        kw = {k.arg: self.build(k.value, None, d) for k in e.keywords if k.arg}
        return fold_format(template, pos_args, kw)


def fold_format(template: str, pos_args: list[Node], kw: dict[str, Node]) -> Node:
    """``template.format(*pos_args, **kw)`` as an ir node: at parse time for a literal template, at
    link time for a template held in a constant; a field no argument fills stays unknown."""
    parts: list[Node] = []
    last, auto = 0, 0
    for m in _FMT.finditer(template):
        parts.append(lit(template[last : m.start()]))
        last = m.end()
        if m.group(0) in ("{{", "}}"):
            parts.append(lit(m.group(0)[0]))
            continue
        field = m.group(1).split("!")[0].split(":")[0]
        key = field.split(".")[0].split("[")[0]
        if key == "":
            parts.append(pos_args[auto] if auto < len(pos_args) else unk("{}"))
            auto += 1
        elif key.isdigit():
            n = int(key)
            parts.append(pos_args[n] if n < len(pos_args) else unk(field))
        else:
            parts.append(kw.get(key, unk(key)))
    parts.append(lit(template[last:]))
    return cat(parts)


#: calls whose own position matters later (a Django ``path(...)`` is where a route is bound)
POSITIONED = frozenset({"path", "re_path", "url"})


def _last_name(f: ast.AST) -> str:
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _const(v: object) -> Node:
    if isinstance(v, str):
        return lit(v)
    if v is None:
        return NONE
    if isinstance(v, bool):
        return lit("true" if v else "false")
    if isinstance(v, (int, float)):
        return lit(str(v))
    if isinstance(v, bytes):
        return lit(v.decode("utf-8", "replace"))
    return unk(type(v).__name__)
