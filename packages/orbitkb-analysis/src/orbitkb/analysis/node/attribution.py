"""Which API handlers reach which function: the handler, its nested callbacks, and every function
of the service it calls, however deep (the generic pass in ``orbitkb.analysis.reach``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from ..reach import reached_by
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

    def owners(self, handlers: Iterable[tuple[str, Loc]]) -> dict[Loc, list[str]]:
        """Function -> every handler reaching it: the handlers whose own body (or a callback in
        it) holds it first, then those reaching it through calls, each group by name."""
        entries: dict[str, set[Loc]] = defaultdict(set)
        for name, loc in handlers:
            entries[name].add(loc)
        direct = reached_by(entries, lambda loc: self.children.get(loc, ()))
        every = reached_by(entries, lambda loc: [*self.children.get(loc, ()), *self.callees([loc])])
        return {
            loc: sorted(direct.get(loc, ())) + sorted(names - direct.get(loc, set()))
            for loc, names in every.items()
        }
