"""gRPC server registrations (``Register<X>Server(srv, impl)``, ``srv.RegisterService(&X_ServiceDesc,
impl)``): one RPC API per method of the implementation that service X really has.

The linker sees Go files only (no .proto, and generated ``*.pb.go`` files are never walked), so
the methods of X are decided from what the Go code shows: the ``XServer`` interface when the
service declares it, else the exported methods taking a context or a stream, minus those whose
request/stream types belong to another service registered with the same struct (the standard
health service above all, which is infrastructure and yields no API of its own).
"""

from __future__ import annotations

import posixpath
import re
from typing import TYPE_CHECKING, Any

from orbitkb.analysis.golang.emit import arg, handler_info
from orbitkb.analysis.golang.sink import HandlerInfo, RouteRec, Sink
from orbitkb.analysis.golang.tables import GRPC_INFRA_METHODS, GRPC_INFRA_PACKAGES, normalize_import
from orbitkb.analysis.golang.values import FuncRef, Struct, Unk, V, lit
from orbitkb.analysis.grpc.bind import TRANSCODED

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

_STREAM = re.compile(r"\b([A-Za-z]\w*?)_\w+(?:Server|Client)\b")
_QUALIFIED = re.compile(r"\b([A-Za-z_]\w*)\.[A-Za-z_]")
_STREAM_HINTS = ("Server", "Stream")
#: Method names of the standard services: not an RPC of another service unless its types say so.
_INFRA_NAMES = frozenset(n for names in GRPC_INFRA_METHODS.values() for n in names)


def _infra_pkg(path: str) -> bool:
    return path.rstrip("/").rsplit("/", 1)[-1] in GRPC_INFRA_PACKAGES


def is_infra(service: str, pkg_path: str | None) -> bool:
    """The standard health/reflection services: every gRPC server has them, they are no API."""
    if pkg_path is not None:
        return _infra_pkg(pkg_path)
    return service in GRPC_INFRA_METHODS


def _impl_type(it: Interp, impl: V, service: str) -> tuple[str, str] | None:
    if isinstance(impl, Struct):
        return impl.dir, impl.type
    want = f"Unimplemented{service}Server"
    for (d, name), (_p, t) in sorted(it.prog.types.items()):
        if any(not fn and ft.lstrip("*").endswith(want) for fn, ft, _tag, _l in t["f"]):
            return d, name
    return None


def _interface(it: Interp, service: str) -> set[str] | None:
    """Methods of the ``<service>Server`` interface when the service's own code declares it."""
    name = f"{service}Server"
    for d in it.prog.types_by_name.get(name, ()):
        _path, t = it.prog.types[(d, name)]
        if t["k"] == "interface" and t.get("m"):
            return set(t["m"])
    return None


def _refs(it: Interp, path: str, types: list[str]) -> frozenset[str]:
    """Import paths the parameter types of a method name (``*pb.GetRequest`` -> pb's path)."""
    imports = it.prog.files.get(path, {}).get("imports", {})
    out = {imports[a] for t in types for a in _QUALIFIED.findall(t) if a in imports}
    return frozenset(normalize_import(p) for p in out)


def _rpc_methods(
    it: Interp, d: str, t: str, service: str, pkg_path: str | None
) -> list[tuple[str, frozenset[str]]]:
    iface = _interface(it, service)
    own = normalize_import(pkg_path) if pkg_path else None
    out: dict[str, frozenset[str]] = {}
    for name in it.prog.methods.get((d, t), []):
        if not name[:1].isupper():
            continue
        path, f = it.prog.funcs[(d, t, name)]
        types = [typ for _n, typ in f["p"]]
        refs = _refs(it, path, types)
        if iface is not None:
            if name in iface:
                out[name] = refs
            continue
        if not _rpc_shape(types):
            continue
        joined = " ".join(types)
        streams = set(_STREAM.findall(joined))
        if streams and service not in streams:
            continue  # e.g. Health_WatchServer: a stream of another service
        if service in streams or (own is not None and own in refs):
            out[name] = refs
        elif not any(_infra_pkg(r) for r in refs) and name not in _INFRA_NAMES:
            out[name] = refs
    return sorted(out.items())


def _rpc_shape(types: list[str]) -> bool:
    """A generated handler's parameters: ``(ctx, req)`` unary, ``(req, stream)`` or ``(stream)``;
    go-micro's ``(ctx, *req, *rsp)``."""
    if len(types) == 2 and "Context" in types[0]:
        return True
    if len(types) == 3 and "Context" in types[0] and all(t.startswith("*") for t in types[1:]):
        return True
    return 1 <= len(types) <= 2 and any(h in types[-1] for h in _STREAM_HINTS)


def grpc_register(
    it: Interp, fr: Frame, service: str, impl: V, e: list[Any], pkg_path: str | None, transcoded: bool = False
) -> None:
    """``Register<X>Server(srv, impl)``: one RPC API per method of impl. ``transcoded``: the
    registration serves those rpcs over HTTP instead (kratos ``Register<X>HTTPServer``,
    grpc-gateway ``Register<X>HandlerServer``): marker APIs the gRPC binding turns into the
    routes the proto declares."""
    found = _impl_type(it, impl, service)
    if found is not None and pkg_path and not transcoded:
        it.sink.grpc_pkgs.setdefault(found, set()).add(normalize_import(pkg_path))
    if is_infra(service, pkg_path):
        return
    if not transcoded:
        it.sink.grpc_impls.setdefault(service, []).append(impl)
    if found is None:
        if transcoded:
            gateway_routes(it, fr, service, e)
        return
    d, t = found
    recv = impl if isinstance(impl, Struct) else Struct(t, dir_=d, known=False)
    for m, refs in _rpc_methods(it, d, t, service, pkg_path):
        ref = FuncRef(key=(d, t, m), file=it.prog.funcs[(d, t, m)][0], recv=recv)
        hinfo = handler_info(it, ref, fr, e[3], e[4])
        rec = RouteRec("grpc", None, lit(f"{service}/{m}"), [TRANSCODED if transcoded else "RPC"], hinfo,
                       fr.file, e[3], e[4])  # fmt: skip
        rec.kind, rec.framework = "grpc", "grpc-http" if transcoded else "grpc"
        rec.grpc = (found, normalize_import(pkg_path) if pkg_path else None, refs)
        it.sink.routes.append(rec)
        it.run_handler(ref, hinfo.symbol)


def gateway_routes(it: Interp, fr: Frame, service: str, e: list[Any]) -> None:
    """Every HTTP route of proto service X served at this registration (a gateway forwarding to a
    server elsewhere): one marker API ``X/`` the gRPC binding expands."""
    stem = posixpath.splitext(posixpath.basename(fr.file))[0]
    hinfo = HandlerInfo(service, fr.file, e[3], e[4], None, fr.component or stem, "module")
    rec = RouteRec("grpc", None, lit(f"{service}/"), [TRANSCODED], hinfo, fr.file, e[3], e[4])
    rec.kind, rec.framework = "grpc", "grpc-gateway"
    it.sink.routes.append(rec)


def belongs(rec: RouteRec, sink: Sink) -> bool:
    """False for an RPC whose types come from another service registered with the same struct
    (known only once every registration is seen)."""
    if rec.grpc is None:
        return True
    impl, own, refs = rec.grpc
    if own is None or own in refs:
        return True
    return not refs & (sink.grpc_pkgs.get(impl, set()) - {own})


_DESC = re.compile(r"(\w+)_ServiceDesc$")


def grpc_register_desc(
    it: Interp, fr: Frame, recv: V | None, args: list[V], e: list[Any], spec: dict[str, Any]
) -> V:
    desc = arg(args, 0)
    m = _DESC.search(desc.hint) if isinstance(desc, Unk) else None
    if m:
        node = e[2][0] if e[2] else None
        alias = node[1][1] if node and node[0] == "sel" and node[1][0] == "id" else None
        pkg = fr.imports(it).get(alias) if alias else None
        grpc_register(it, fr, m.group(1), arg(args, 1), e, pkg)
    return Unk("register")


def micro_handler(it: Interp, fr: Frame, recv: V | None, args: list[V], e: list[Any], spec: dict[str, Any]) -> V:
    """go-micro's handler registered without generated code (``micro.RegisterHandler(srv,
    new(Stock))``, ``srv.NewHandler(&Stock{})``): it serves ``Stock.<Method>`` by its type's name."""
    impl = arg(args, spec["impl"])
    if isinstance(impl, Struct) and impl.type:
        grpc_register(it, fr, impl.type, impl, e, None)
    return Unk("register")


ACTIONS = {"grpc_register_desc": grpc_register_desc, "micro_handler": micro_handler}
