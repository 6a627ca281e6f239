"""Which API handler reaches which function: the handler, its nested callbacks, and one hop of calls."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from .resolve import Resolver, Target

Loc = tuple[str, str]  # (file, fid)


class Reach:
    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver) -> None:
        self.files = files
        self.r = resolver
        self.children: dict[Loc, list[Loc]] = defaultdict(list)
        for file, data in files.items():
            for fid, record in data.get("functions", {}).items():
                if record.get("parent"):
                    self.children[(file, record["parent"])].append((file, fid))

    def closure(self, loc: Loc) -> set[Loc]:
        """The function and every function nested in it (callbacks, inner helpers)."""
        out: set[Loc] = set()
        stack = [loc]
        while stack:
            cur = stack.pop()
            if cur in out:
                continue
            out.add(cur)
            stack.extend(self.children.get(cur, ()))
        return out

    def callee(self, file: str, ref: list[Any]) -> Loc | None:
        target: Target | None = self.r.resolve(file, ref)
        if target is not None and target[0] == "module":
            target = self.r.export(target[1], "default")
        if target is not None and target[0] == "fn":
            return (str(target[1]), str(target[2]))
        return None

    def callees(self, locs: Iterable[Loc]) -> set[Loc]:
        out: set[Loc] = set()
        for file, fid in locs:
            record = self.files.get(file, {}).get("functions", {}).get(fid)
            for invoke in record.get("invokes", []) if record else []:
                loc = self.callee(file, invoke["callee"])
                if loc is not None:
                    out.add(loc)
        return out

    def owners(self, handlers: Iterable[tuple[str, Loc]]) -> dict[Loc, str]:
        """Function -> handler name; a direct owner wins over a one-hop one, then the first by name."""
        direct: dict[Loc, str] = {}
        hop: dict[Loc, str] = {}
        for name, loc in sorted(handlers):
            inside = self.closure(loc)
            for f in inside:
                direct.setdefault(f, name)
            for callee in self.callees(inside):
                for f in self.closure(callee):
                    hop.setdefault(f, name)
        return {**hop, **direct}
