"""Index of one service's parsed Go files: functions, methods, types and package-level values.

A Go package is a directory, so everything is keyed by directory; imports of the service's own
packages are matched to directories by their longest common path suffix (go.mod is not needed).
"""

from __future__ import annotations

import functools
import posixpath
import re
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.golang.tables import LIBS, normalize_import

_MAJOR = re.compile(r"^v\d+$")
FuncKey = tuple[str, str, str]  # (dir, receiver type or "", name)


class Program:
    def __init__(self, parsed: Mapping[str, dict[str, Any]], foreign: frozenset[str] = frozenset()) -> None:
        #: files another service owns (interp.Interp.foreign): their types are found by package only
        self.foreign_dirs = frozenset(posixpath.dirname(p) for p in foreign)
        self.files: dict[str, dict[str, Any]] = {
            p: d for p, d in sorted(parsed.items()) if isinstance(d, dict) and "funcs" in d
        }
        self.funcs: dict[FuncKey, tuple[str, dict[str, Any]]] = {}
        self.types: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
        self.methods: dict[tuple[str, str], list[str]] = {}
        self.methods_by_name: dict[str, list[FuncKey]] = {}
        self.types_by_name: dict[str, list[str]] = {}
        self.gvars: dict[tuple[str, str], tuple[str, list[Any]]] = {}
        self.called: set[str] = set()
        self._by_last: dict[str, list[str]] = {}
        self._import_cache: dict[str, str | None] = {}
        for path, data in self.files.items():
            d = posixpath.dirname(path)
            self._by_last.setdefault(posixpath.basename(d) or d, []).append(d)
            self.called.update(data.get("calls", ()))
            for f in data["funcs"]:
                key = (d, f["r"] or "", f["n"])
                self.funcs.setdefault(key, (path, f))
                if f["r"]:
                    self.methods.setdefault((d, f["r"]), []).append(f["n"])
                    self.methods_by_name.setdefault(f["n"], []).append(key)
            for t in data["types"]:
                self.types.setdefault((d, t["n"]), (path, t))
                self.types_by_name.setdefault(t["n"], []).append(d)
            for v in data["vars"]:
                self.gvars.setdefault((d, v[0]), (path, v))
        for dirs in self._by_last.values():
            dirs[:] = sorted(set(dirs))

    @functools.cached_property
    def imported(self) -> frozenset[str]:
        """Every import path of the service's files, normalized (``/vN`` dropped), read once."""
        return frozenset(normalize_import(x) for d in self.files.values() for x in d.get("imports", {}).values())

    def import_dir(self, import_path: str) -> str | None:
        """The service directory an import path names, or None for an external package."""
        if import_path in self._import_cache:
            return self._import_cache[import_path]
        if normalize_import(import_path) in LIBS:  # streadway/amqp is never the repo's own pkg/x/amqp
            self._import_cache[import_path] = None
            return None
        head, _, last = import_path.rstrip("/").rpartition("/")
        if _MAJOR.match(last):  # a trailing v1 names a folder (api/orders/v1), not a module version
            segs = [s for s in (*normalize_import(head).split("/"), last) if s]
        else:
            segs = [s for s in normalize_import(import_path).split("/") if s]
        best: str | None = None
        best_len = 0
        for d in self._by_last.get(segs[-1] if segs else "", ()):
            dsegs = [s for s in d.split("/") if s]
            n = 0
            while n < len(dsegs) and n < len(segs) and dsegs[-1 - n] == segs[-1 - n]:
                n += 1
            # one common segment is enough only for a multi-segment import of a nested dir
            if n > best_len and (n >= 2 or len(segs) > 1 and "." in segs[0]):
                best, best_len = d, n
        self._import_cache[import_path] = best
        return best

    def func(self, key: FuncKey) -> tuple[str, dict[str, Any]] | None:
        return self.funcs.get(key)

    def method_key(self, dir_: str, type_: str, name: str) -> FuncKey | None:
        key = (dir_, type_, name)
        if key in self.funcs:
            return key
        for k in self.methods_by_name.get(name, ()):
            if k[1] == type_ and k[0] not in self.foreign_dirs:
                return k
        return None

    def type_decl(self, dir_: str, name: str) -> tuple[str, dict[str, Any]] | None:
        d = self.type_dir(dir_, name)
        return self.types.get((d, name)) if d is not None else None

    def type_dir(self, dir_: str, name: str) -> str | None:
        if (dir_, name) in self.types:
            return dir_
        dirs = [d for d in self.types_by_name.get(name, ()) if d not in self.foreign_dirs]
        return dirs[0] if dirs else None

    def entry_order(self) -> list[FuncKey]:
        """Functions in interpretation order: main/init first, then never-called ones, then the rest."""

        def rank(item: tuple[FuncKey, tuple[str, dict[str, Any]]]) -> tuple[int, str, int]:
            key, (path, f) = item
            if key[2] in ("main", "init") and not key[1]:
                r = 0
            elif key[2] not in self.called:
                r = 1
            else:
                r = 2
            return (r, path, f["l"])

        return [k for k, _ in sorted(self.funcs.items(), key=rank)]
