"""Exported helpers no code of the service reaches: their messages are not sent by this service.

Services copied from one template often carry the same `utils` module, with a `publish(...)`
helper that only some of them call. When other files pick functions from a module by name
(`const { subscribe } = require("./utils")`), a message inside another function that module
exports, which no file imports by name and no invocation anywhere resolves to, cannot run in this
service: it is left out. A module nobody imports (an entry point, a handler a platform calls), one
imported whole (`utils.publish(...)`), and a function used any other way (called in its own file,
or not exported at all) keep their messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .attribution import Reach
from .resolve import Resolver

Loc = tuple[str, str]  # (file, fid)


class DeadHelpers:
    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver, reach: Reach) -> None:
        self.files = files
        self.r = resolver
        self.reach = reach
        self._reached: set[Loc] | None = None
        self._whole: set[str] = set()  # modules some file imports whole (`const utils = require(..)`)
        self._picked: set[str] = set()  # modules other files pick functions from by name

    def _reached_locs(self) -> set[Loc]:
        """Every function an invocation or a by-name import of the service resolves to."""
        out: set[Loc] = set()
        for file in sorted(self.files):
            data = self.files[file]
            invokes = [inv for rec in data.get("functions", {}).values() for inv in rec.get("invokes", [])]
            for inv in [*invokes, *data.get("invokes", [])]:
                loc = self.reach.callee(file, inv["callee"])
                if loc is not None:
                    out.add(loc)
            for spec, name, rest in data.get("imports", {}).values():
                if name in ("*", "default"):  # the whole module: any export may be used
                    module = self.r.resolve(file, ["imp", spec, "*", ""])
                    if module is not None and module[0] == "module":
                        self._whole.add(str(module[1]))
                    continue
                loc = self.reach.callee(file, ["imp", spec, name, rest])
                if loc is not None:
                    out.add(loc)
                    self._picked.add(loc[0])
        return out

    def _exported(self, file: str, fid: str) -> bool:
        exports = self.files[file].get("exports", {})
        return fid in exports or any(str(v).rsplit(".", 1)[-1] == fid for v in exports.values())

    def covers(self, file: str, msg: Mapping[str, Any]) -> bool:
        """A message of an exported top-level helper nothing in the service reaches."""
        fid = msg.get("fn")
        if not fid or msg.get("cls") or fid.startswith("<anonymous>"):
            return False
        record = self.files[file].get("functions", {}).get(fid)
        if record is None or record.get("parent") or not self._exported(file, fid):
            return False
        if self._reached is None:
            self._reached = self._reached_locs()
        if file not in self._picked or file in self._whole or (file, fid) in self._reached:
            return False
        return not self._mentioned_in_file(file, fid)

    def _mentioned_in_file(self, file: str, fid: str) -> bool:
        """Used in its own file (called, or handed on as a value): kept."""
        data = self.files[file]
        for rec in data.get("functions", {}).values():
            for inv in rec.get("invokes", []):
                if fid in str(inv.get("callee")):
                    return True
        return any(fid in str(inv.get("callee")) for inv in data.get("invokes", []))
