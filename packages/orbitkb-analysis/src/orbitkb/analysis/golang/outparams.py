"""Functions that write through a pointer parameter (``*dst = v``), directly or by handing the
pointer on to one that does: their caller's variable or field is what they fill."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from orbitkb.analysis.golang.program import FuncKey, Program


def _nodes(ir: Any, depth: int = 0) -> Iterator[list[Any]]:
    if isinstance(ir, list) and depth < 40:
        if ir and isinstance(ir[0], str):
            yield ir
        for child in ir:
            if isinstance(child, list):
                yield from _nodes(child, depth + 1)


def _pointer_params(f: dict[str, Any]) -> set[str]:
    return {name for name, typ in f["p"] if typ.startswith("*")}


class OutParams:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self._known: dict[FuncKey, bool] = {}
        self._by_name: dict[str, list[FuncKey]] = {}
        for key in prog.funcs:
            self._by_name.setdefault(key[2], []).append(key)

    def writes(self, key: FuncKey) -> bool:
        """True when calling ``key`` may assign what one of its pointer arguments points to."""
        got = self._known.get(key)
        if got is not None:
            return got
        self._known[key] = False  # recursion: assume no until shown otherwise
        found = self.prog.func(key)
        got = found is not None and self._scan(found[1])
        self._known[key] = got
        return got

    def _scan(self, f: dict[str, Any]) -> bool:
        ptrs = _pointer_params(f)
        if not ptrs:
            return False
        for st in f["b"]:
            if st[0] == "set" and any(t and t[0] == "deref" for t in st[1]):
                return True
        for node in _nodes(f["b"]):
            if node[0] != "call" or len(node) < 3:
                continue
            passed = any(isinstance(a, list) and a[:1] == ["id"] and a[1] in ptrs for a in node[2])
            fn = node[1]
            name = fn[1] if fn[0] == "id" else fn[2] if fn[0] == "sel" else None
            if passed and name and any(self.writes(k) for k in self._by_name.get(name, ())):
                return True
        return False
