"""One service's Rust files indexed for the interpreter: functions by name and by impl type,
constants, struct fields read from the environment, and the routes declared by attributes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from attrs import define, field

from orbitkb.analysis.facts import Env
from orbitkb.analysis.rust.tables import ROUTE_ATTRS, VERBS

#: ``use ...::greeter_client::GreeterClient`` / ``use ...::greeter_server::{Greeter, GreeterServer}``
_GENERATED = re.compile(r"\w+_(client|server)::(\{[^}]*\}|\w+)")


@define(eq=False)
class Fn:
    file: str
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def owner(self) -> str | None:
        return self.data.get("owner")

    @property
    def key(self) -> tuple[str, int]:
        return self.file, int(self.data["line"])

    @property
    def params(self) -> list[list[str]]:
        return list(self.data.get("params") or [])

    @property
    def handler(self) -> str:
        return f"{self.owner}.{self.name}" if self.owner else self.name


@define
class AttrRoute:
    method: str
    path: str
    fn: Fn
    line: int


@define
class Program:
    files: Mapping[str, dict[str, Any]]
    fns: list[Fn] = field(factory=list)
    free: dict[str, list[Fn]] = field(factory=dict)
    methods: dict[str, list[Fn]] = field(factory=dict)
    consts: dict[str, tuple[Any, str]] = field(factory=dict)
    all_consts: dict[str, list[tuple[Any, str]]] = field(factory=dict)  # every crate's, by name
    env_fields: dict[str, Env] = field(factory=dict)
    attr_routes: dict[str, list[AttrRoute]] = field(factory=dict)
    mentions: set[str] = field(factory=set)
    grpc_clients: set[str] = field(factory=set)  # tonic client types imported from an ``x_client`` module
    grpc_servers: dict[str, str] = field(factory=dict)  # server trait / XServer type -> proto service

    @classmethod
    def build(cls, files: Mapping[str, dict[str, Any]]) -> Program:
        prog = cls(files)
        for path, data in sorted(files.items()):
            prog.mentions.update(data.get("mentions") or ())
            for use in data.get("uses") or ():
                for module, names in _GENERATED.findall(use):
                    for name in re.findall(r"\b([A-Z]\w*)", names):
                        if module == "client" and name.endswith("Client"):
                            prog.grpc_clients.add(name)
                        elif module == "server":
                            prog.grpc_servers[name] = name.removesuffix("Server") or name
            for name, value in (data.get("consts") or {}).items():
                prog.consts.setdefault(name, (value, path))
                prog.all_consts.setdefault(name, []).append((value, path))
            for raw in data.get("fns") or ():
                fn = Fn(path, raw)
                prog.fns.append(fn)
                (prog.methods if fn.owner else prog.free).setdefault(fn.name, []).append(fn)
                for route in _attr_routes(fn):
                    prog.attr_routes.setdefault(fn.name, []).append(route)
            for struct in data.get("structs") or ():
                for fname, _type, attrs in struct["fields"]:
                    for name, _strings, pairs, _line in attrs:
                        if name.rsplit("::", 1)[-1] == "envconfig" and pairs.get("from"):
                            default = (pairs.get("default") or [None])[0]
                            prog.env_fields.setdefault(fname, Env(pairs["from"][0], default))
        return prog

    def const(self, name: str, reader: str) -> Any:
        """The value of constant ``name`` as the file ``reader`` sees it: its own crate's when
        several crates of a workspace declare one of that name (``SERVICE_NAME`` in each)."""
        found = self.all_consts.get(name) or []
        if len(found) > 1:
            crate = _crate(reader)
            found = [c for c in found if _crate(c[1]) == crate] or found
        return found[0][0] if found else None

    def lookup(self, callee: str, owner: str | None = None) -> list[Fn]:
        """Functions a call names: ``f``, ``module::f``, ``Type::f``, ``Self::f``."""
        parts = [p for p in callee.split("::") if p]
        if not parts:
            return []
        name = parts[-1]
        if len(parts) > 1 and parts[-2][:1].isupper():
            type_name = owner if parts[-2] == "Self" else parts[-2]
            return [f for f in self.methods.get(name, []) if f.owner == type_name]
        found = self.free.get(name, [])
        if len(found) > 1 and len(parts) > 1:
            module = parts[-2]
            narrowed = [f for f in found if module in f.file or module in (f.data.get("module") or "")]
            return narrowed or found
        return found


def _crate(path: str) -> str:
    """The crate folder a source file belongs to (what precedes its ``src/``)."""
    head, sep, _ = f"/{path}".rpartition("/src/")
    return head if sep else path.rsplit("/", 1)[0]


def _attr_routes(fn: Fn) -> list[AttrRoute]:
    out: list[AttrRoute] = []
    for name, strings, pairs, line in fn.data.get("attrs") or ():
        short = name.rsplit("::", 1)[-1]
        if short not in ROUTE_ATTRS or not strings or not strings[0].startswith("/"):
            continue
        if short == "route":
            methods = [m.upper() for m in pairs.get("method", [])] or ["ANY"]
        else:
            methods = [VERBS[short]]
        out.extend(AttrRoute(m, strings[0], fn, line) for m in methods)
    return out
