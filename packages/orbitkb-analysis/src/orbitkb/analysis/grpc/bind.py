"""Binding every rpc a service implements to the code that implements it.

The language analyzers report some gRPC APIs themselves (``Service/Method`` at the implementing
method); the rest are only known as "this service implements proto service X". Here, with the
repository's protos (``ProtoCatalog``), each API gets the package-qualified path
``<package>.<Service>/<Rpc>``, the request/response fields of its messages, and a handler in the
code: the analyzer's own, a JS handler object's entry, the class/receiver type the registration
names, or the type that implements the most rpcs by name. Only when no code is found does the
API point at the rpc line of the service's own copy of the proto.

Also drops the bogus self-calls of dev-only clients (``client.py`` run by hand, scripts): a gRPC
call to a proto service the calling service implements itself, from a file that serves nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from attrs import evolve, frozen

from orbitkb.analysis.facts import LinkedFacts, RawApi, RawCall, RawComponent, RawMessage
from orbitkb.analysis.grpc.catalog import INFRA_SERVICES, ProtoCatalog, Shape, simple
from orbitkb.analysis.grpc.code import CodeIndex, CodeMethod
from orbitkb.analysis.grpc.services import ProtoRpc, ProtoService, handler_map

BIND_VERSION = "2"  # part of the link cache key: bump when binding output changes
#: Folders whose code is run by hand, never deployed as part of the service.
DEV_DIRS = frozenset({"scripts", "script", "tools", "tool", "examples", "example", "hack", "dev", "devtools"})
_NOT_SERVER_WORDS = ("store", "repository", "repo", "client", "stub", "dao", "cache", "db", "model", "mock")
_SERVER_WORDS = ("server", "service", "servicer", "impl", "handler", "handlers", "controller", "api", "rpc")
#: Base-type suffixes that say "this type implements proto service X" (Go, C#, Java, Python).
#: The method of a linker's marker API "this rpc (``Service/Rpc``, or ``Service/`` for all) is also
#: served over HTTP by transcoding": expanded here into the routes its proto declares.
TRANSCODED = "HTTP"
_TEMPLATE_VAR = re.compile(r"\{([\w.]+)=[^}]*\}")
_IMPL_MARKS = ("Unimplemented{}Server", "{}Base", "{}ImplBase", "{}CoroutineImplBase", "{}Servicer")


@frozen
class BindInput:
    root: str  # the service folder
    facts: LinkedFacts
    registrations: Mapping[str, Sequence[tuple[str, str | None]]]  # path -> (proto service, impl)
    code: CodeIndex
    entry_files: frozenset[str] = frozenset()


def _server_like(owner: str, proto: ProtoService) -> bool:
    """A type matched by method names alone must also be named like a server of ``proto``
    (``productCatalog``, ``ShopServer``, ``OrdersImpl``), not like a store or client."""
    name = owner.lower()
    if name.endswith(_NOT_SERVER_WORDS):
        return False
    stem = proto.name.lower().removesuffix("service") or proto.name.lower()
    return stem in name or name.endswith(_SERVER_WORDS)


def _split(path: str) -> tuple[str, str]:
    svc, _, rpc = path.strip("/").rpartition("/")
    return svc.rsplit("/", 1)[-1], rpc


class _Binder:
    def __init__(self, inp: BindInput, catalog: ProtoCatalog) -> None:
        self.inp = inp
        self.cat = catalog
        self.root = inp.root
        self.code = inp.code

    def _fields(self, proto: ProtoService, rpc: ProtoRpc) -> tuple[Shape, Shape]:
        return self.cat.shape(rpc.request_type, proto.package), self.cat.shape(
            rpc.response_type, proto.package
        )

    def analyzer_apis(self) -> tuple[list[RawApi], set[tuple[str, str]]]:
        """The linker's APIs with gRPC ones qualified and shaped; rpcs the proto lacks dropped."""
        out: list[RawApi] = []
        covered: set[tuple[str, str]] = set()
        for api in self.inp.facts.apis:
            if api.kind == "grpc" and api.method == TRANSCODED:
                out.extend(self.transcoded(api))
                continue
            if api.kind != "grpc":
                out.append(api)
                continue
            svc_name, rpc_name = _split(api.path)
            proto = self.cat.service(svc_name, self.root) if svc_name else None
            if proto is None:
                if simple(svc_name) not in INFRA_SERVICES:
                    out.append(api)
                continue
            rpc = self.cat.rpc(proto, rpc_name)
            if rpc is None:
                continue  # a helper method of the servicer class, not an rpc
            covered.add((proto.full_name, rpc.name))
            request, response = self._fields(proto, rpc)
            out.append(
                evolve(
                    api,
                    path=f"{proto.full_name}/{rpc.name}",
                    doc=api.doc or rpc.doc,
                    request_fields=api.request_fields or request,
                    response_fields=api.response_fields or response,
                )
            )
        return out, covered

    def transcoded(self, api: RawApi) -> list[RawApi]:
        """The HTTP routes (``google.api.http``) of an rpc served through a transcoding layer
        (grpc-gateway, kratos HTTP), at the linker's handler; ``Service/`` stands for every rpc."""
        svc_name, _, rpc_name = api.path.rpartition("/")
        proto = self.cat.service(svc_name, self.root) if svc_name else None
        if proto is None:
            return []
        rpcs = [self.cat.rpc(proto, rpc_name)] if rpc_name else list(proto.rpcs)
        out = []
        for rpc in (r for r in rpcs if r is not None):
            request, response = self._fields(proto, rpc)
            handler = api.handler if rpc_name else f"{api.handler}.{rpc.name}"
            for method, template in rpc.http:
                out.append(
                    evolve(api, method=method, path=_TEMPLATE_VAR.sub(r"{\1}", template), kind="http",
                           handler=handler, doc=api.doc or rpc.doc, request_fields=api.request_fields or request,
                           response_fields=api.response_fields or response)
                )  # fmt: skip
        return out

    def served(self) -> dict[str, list[tuple[str, str | None]]]:
        """proto service name -> (registration file, impl) pairs ("" file: named by the linker)."""
        out: dict[str, list[tuple[str, str | None]]] = {}
        for name in self.inp.facts.grpc_implements:
            out.setdefault(name, []).append(("", None))
        for path in sorted(self.inp.registrations):
            for name, impl in self.inp.registrations[path]:
                out.setdefault(name, []).append((path, impl))
        return out

    # ------------------------------------------------------------------ locating code
    def _by_map(self, proto: ProtoService, regs: Sequence[tuple[str, str | None]]) -> dict[str, CodeMethod]:
        found: dict[str, CodeMethod] = {}
        for file, impl in regs:
            for key, value in sorted(handler_map(impl).items()):
                rpc = self.cat.rpc(proto, key)
                method = self._handler(file, value) if rpc is not None else None
                if rpc is not None and method is not None:
                    # an inline function the analyzer could not name is known by its object key
                    found.setdefault(
                        rpc.name, evolve(method, name=key) if method.name.startswith("<") else method
                    )
        return found

    def _handler(self, file: str, value: str) -> CodeMethod | None:
        if value.startswith("@L") and value[2:].isdigit():
            line = int(value[2:])
            return next((m for m in self.code.methods if m.file == file and line <= m.line <= line + 1), None)
        last = value.rsplit(".", 1)[-1]
        for hits in (
            self.code.by_fid.get(value),
            self.code.by_fid.get(last),
            self.code.by_fid.get("." + last),
        ):
            if hits:
                return min(hits, key=lambda m: (m.file != file, m.file, m.line))
        return None

    def _signal(self, owner: str, proto: ProtoService, methods: Mapping[str, CodeMethod]) -> bool:
        """The owner's type says it implements ``proto`` (base/embedded type, Go request types)."""
        t = self.code.types.get(owner)
        marks = [m.format(proto.name) for m in _IMPL_MARKS]
        if t is not None and any(simple(e.lstrip("*")).endswith(tuple(marks)) for e in t.embeds):
            return True
        for rpc in proto.rpcs:
            m = methods.get(rpc.name)
            if (
                m
                and rpc.request_type
                and any(simple(a.lstrip("*")) == simple(rpc.request_type) for a in m.arg_types)
            ):
                return True
        return False

    def _by_owner(self, proto: ProtoService, hints: set[str]) -> dict[str, CodeMethod]:
        owners: dict[str, dict[str, CodeMethod]] = {}
        for rpc in proto.rpcs:
            for m in self.code.named(rpc.name):
                if m.owner:
                    owners.setdefault(m.owner, {}).setdefault(rpc.name, m)
        named = [o for o in sorted(owners) if o in hints]
        need = max(1, math.ceil(len(proto.rpcs) / 2))
        ranked = named or sorted(
            (
                o
                for o in owners
                if self._signal(o, proto, owners[o]) or (len(owners[o]) >= need and _server_like(o, proto))
            ),
            key=lambda o: (not self._signal(o, proto, owners[o]), -len(owners[o]), o),
        )
        found: dict[str, CodeMethod] = {}
        for owner in ranked[:1] if not named else ranked:
            for rpc_name, m in owners[owner].items():
                found.setdefault(rpc_name, m)
        return found

    def _loose(self, rpc: ProtoRpc, reg_files: set[str]) -> CodeMethod | None:
        hits = [m for m in self.code.named(rpc.name) if m.owner is None]
        preferred = [m for m in hits if m.file in reg_files] or hits
        return preferred[0] if len(preferred) == 1 else None

    def bind_served(self, covered: set[tuple[str, str]]) -> list[RawApi]:
        out: list[RawApi] = []
        for name, regs in sorted(self.served().items()):
            proto = self.cat.service(name, self.root)
            if proto is None:
                continue
            todo = [r for r in proto.rpcs if (proto.full_name, r.name) not in covered]
            if not todo:
                continue
            hints = {impl for _, impl in regs if impl and not impl.startswith("{")}
            sites = self._by_map(proto, regs)
            for rpc_name, method in self._by_owner(proto, hints).items():
                sites.setdefault(rpc_name, method)
            reg_files = {f for f, _ in regs if f}
            for rpc in todo:
                covered.add((proto.full_name, rpc.name))
                site = sites.get(rpc.name) or self._loose(rpc, reg_files)
                path = f"{proto.full_name}/{rpc.name}"
                request, response = self._fields(proto, rpc)
                if site is not None:
                    out.append(
                        RawApi("RPC", path, site.handler, site.file, site.line, max(site.end_line, site.line),
                               kind="grpc", component=site.component, doc=site.doc or rpc.doc, framework="grpc",
                               request_fields=request, response_fields=response)
                    )  # fmt: skip
                else:
                    owner = sorted(hints)[0] if hints else proto.name
                    out.append(
                        RawApi("RPC", path, f"{owner}.{rpc.name}", proto.file, rpc.line, max(rpc.end_line, rpc.line),
                               kind="grpc", doc=rpc.doc, framework="grpc", request_fields=request,
                               response_fields=response)
                    )  # fmt: skip
        return out

    def components(self, apis: Sequence[RawApi]) -> tuple[RawComponent, ...]:
        """The linker's components plus the classes/modules of APIs bound here."""
        have = {c.name for c in self.inp.facts.components}
        out = list(self.inp.facts.components)
        for api in apis:
            if api.kind != "grpc" or not api.component or api.component in have:
                continue
            have.add(api.component)
            t = self.code.types.get(api.component)
            if t is not None:
                out.append(RawComponent(t.name, t.file, "class", t.line, max(t.end_line, t.line), t.doc))
            elif "." in api.handler:
                out.append(RawComponent(api.component, api.file, "class", api.start_line, api.end_line))
            else:
                out.append(RawComponent(api.component, api.file, "module", 1, 1))
        return tuple(out)

    def calls(self, apis: Sequence[RawApi]) -> tuple[RawCall, ...]:
        served = {simple(n) for n in self.served()} | {
            simple(_split(a.path)[0]) for a in apis if a.kind == "grpc"
        }
        serving = {a.file for a in apis} | set(self.inp.registrations)
        return tuple(
            c
            for c in self.inp.facts.calls
            if not (
                c.kind == "grpc"
                and c.grpc_service
                and simple(c.grpc_service) in served
                and c.file not in serving
                and self._dev_only(c.file)
            )
        )

    def _dev_only(self, path: str) -> bool:
        parts = path.split("/")
        stem = parts[-1].rsplit(".", 1)[0].lower()
        return (
            path in self.inp.entry_files
            or any(p in DEV_DIRS for p in parts[:-1])
            or stem.endswith("client")
            or stem.startswith("client")
        )


def bind(inp: BindInput, catalog: ProtoCatalog) -> LinkedFacts:
    """``inp.facts`` with gRPC APIs qualified, shaped and bound to code, and dev-only self-calls
    dropped. Without protos in the repository only the self-call rule and infra filter apply."""
    b = _Binder(inp, catalog)
    apis, covered = b.analyzer_apis()
    apis += b.bind_served(covered)
    apis.sort(key=lambda a: (a.file, a.start_line, a.path, a.method, a.handler))
    calls = b.calls(apis)
    # a component that only held dropped facts (dev-only calls, infra or non-rpc APIs) goes too
    live: tuple[RawApi | RawCall | RawMessage, ...] = (*apis, *calls, *inp.facts.messages)
    given: tuple[RawApi | RawCall, ...] = (*inp.facts.apis, *inp.facts.calls)
    gone = {(x.component, x.file) for x in given} - {
        (x.component, x.file) for x in live
    }
    live_files = {x.file for x in live}
    components = tuple(
        c
        for c in b.components(apis)
        if (c.name, c.file) not in gone and not ((None, c.file) in gone and c.file not in live_files)
    )
    return evolve(inp.facts, apis=tuple(apis), components=components, calls=calls)
