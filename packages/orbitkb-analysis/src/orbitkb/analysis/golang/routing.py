"""Router actions: routes, groups, sub-routers and mounts of net/http, gin, echo, chi, gorilla/mux,
fiber and httprouter, plus gRPC server registrations (Register<X>Server)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from orbitkb.analysis.golang.emit import arg, handler_info, literal, method_name, new_obj
from orbitkb.analysis.golang.sink import RouteRec
from orbitkb.analysis.golang.tables import FRAMEWORKS, HANDLER_LAST
from orbitkb.analysis.golang.values import FuncRef, Obj, S, Seq, Struct, Unk, V, lit

if TYPE_CHECKING:
    from orbitkb.analysis.golang.interp import Frame, Interp

Args = list[V]


def _pick_handler(lib: str, rest: Args) -> V:
    if not rest:
        return Unk("handler")
    funcs = [a for a in rest if isinstance(a, (FuncRef, Struct))]
    if lib in HANDLER_LAST:
        return funcs[-1] if funcs else rest[-1]
    return rest[0]


def add_route(
    it: Interp, fr: Frame, e: list[Any], router: Obj | None, seg: V, methods: list[str], handler: V, lib: str
) -> RouteRec:
    hinfo = handler_info(it, handler, fr, e[3], e[4])
    rec = RouteRec(lib, router, seg, methods, hinfo, fr.file, e[3], e[4], framework=FRAMEWORKS.get(lib, lib))
    it.sink.routes.append(rec)
    it.run_handler(handler, hinfo.symbol)
    return rec


def _lib(recv: V | None) -> str:
    return str(recv.a.get("lib", "")) if isinstance(recv, Obj) else ""


def verb(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if isinstance(recv, Obj) and args:
        add_route(it, fr, e, recv, args[0], [spec["m"]], _pick_handler(_lib(recv), args[1:]), _lib(recv))
    return Unk("route")


def verb_arg(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if isinstance(recv, Obj) and len(args) >= 2:
        m = method_name(args[0]) or "ANY"
        add_route(it, fr, e, recv, args[1], [m], _pick_handler(_lib(recv), args[2:]), _lib(recv))
    return Unk("route")


def match(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if isinstance(recv, Obj) and len(args) >= 2:
        ms = args[0].items if isinstance(args[0], Seq) else [args[0]]
        methods = [m for m in (method_name(x) for x in ms) if m]
        add_route(
            it, fr, e, recv, args[1], methods or ["ANY"], _pick_handler(_lib(recv), args[2:]), _lib(recv)
        )
    return Unk("route")


def _sub(recv: Obj, seg: V) -> Obj:
    sub = new_obj("router", {"lib": recv.a.get("lib", "")})
    sub.a["parents"].append((recv, seg))
    return sub


def group(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj):
        return Unk("group")
    return _sub(recv, arg(args, 0) if args else lit(""))


def group_fn(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj):
        return Unk("group")
    sub = _sub(recv, lit(""))
    if args and isinstance(args[0], FuncRef):
        it.call_value(args[0], [sub], fr, e[3])
    return sub


def route_fn(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj) or not args:
        return Unk("route")
    sub = _sub(recv, args[0])
    if len(args) > 1 and isinstance(args[1], FuncRef):
        it.call_value(args[1], [sub], fr, e[3])
    return sub


def mount(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj) or len(args) < 2:
        return Unk("mount")
    child = args[1]
    if isinstance(child, Obj) and child.kind == "strip":
        child = child.a["inner"]
    if isinstance(child, Obj) and child.kind == "router":
        child.a["mounts"].append((recv, args[0]))
    elif isinstance(child, (FuncRef, Struct)):
        add_route(it, fr, e, recv, args[0], ["ANY"], child, _lib(recv))
    return recv


def same(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    return recv if recv is not None else Unk("same")


_HOST = re.compile(r"^[^/\s]+(?=/)")


def pattern(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    """net/http ``Handle``/``HandleFunc``: Go 1.22 "METHOD /path" patterns, host patterns, mounts."""
    if not isinstance(recv, Obj) or len(args) < 2:
        return Unk("route")
    pat = args[0]
    method = "ANY"
    text = literal(pat)
    if text is not None:
        text = text.strip()
        if " " in text:
            m, _, rest = text.partition(" ")
            method, text = m.upper(), rest.strip()
        text = _HOST.sub("", text)
        if text.endswith("{$}"):
            text = text[:-3]
        pat = lit(text)
    handler = args[1]
    if isinstance(handler, Obj) and handler.kind == "strip":
        inner = handler.a["inner"]
        if isinstance(inner, Obj) and inner.kind == "router":
            inner.a["mounts"].append((recv, handler.a["prefix"]))
            return Unk("mount")
        handler = inner
    if isinstance(handler, Obj) and handler.kind == "router":
        handler.a["mounts"].append((recv, lit("")))  # routes of the inner mux carry full paths
        return Unk("mount")
    add_route(it, fr, e, recv, pat, [method], handler, "http")
    return Unk("route")


def default_mux(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if it.default_mux is None:
        it.default_mux = new_obj("router", {"lib": "http"})
    return pattern(it, fr, it.default_mux, args, e, spec)


def strip_prefix(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    return Obj("strip", prefix=arg(args, 0), inner=arg(args, 1))


# --------------------------------------------------------------------------- gorilla/mux


def groute(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    gr = Obj("groute", router=recv, path=None, prefix=None, methods=[], rec=None)
    if "methods" in spec:
        gr.a["methods"] = [m for m in (method_name(a) for a in args) if m]
        return gr
    gr.a["path"] = arg(args, spec["path"])
    if "handler" in spec and len(args) > spec["handler"]:
        _attach(it, fr, e, gr, args[spec["handler"]])
    return gr


def gprefix(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    return Obj("groute", router=recv, path=None, prefix=arg(args, 0), methods=[], rec=None)


def _attach(it: Interp, fr: Frame, e: list[Any], gr: Obj, handler: V) -> None:
    router = gr.a["router"]
    seg = gr.a["path"] if gr.a["path"] is not None else gr.a["prefix"] or lit("")
    gr.a["rec"] = add_route(
        it, fr, e, router if isinstance(router, Obj) else None, seg, gr.a["methods"], handler, "gorilla"
    )


def groute_set(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj):
        return Unk("route")
    what = spec["what"]
    if what == "methods":
        recv.a["methods"] = [m for m in (method_name(a) for a in args) if m]
        if recv.a["rec"] is not None:
            recv.a["rec"].methods = recv.a["methods"]
    elif what == "handler":
        if recv.a["rec"] is None and args:
            _attach(it, fr, e, recv, args[0])
    elif what == "path":
        recv.a["path"] = arg(args, 0)
    elif what == "prefix":
        recv.a["prefix"] = arg(args, 0)
    return recv


def gsubrouter(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    if not isinstance(recv, Obj) or not isinstance(recv.a.get("router"), Obj):
        return Unk("subrouter")
    seg = recv.a.get("prefix") or recv.a.get("path") or lit("")
    return _sub(recv.a["router"], seg)


# --------------------------------------------------------------------------- gRPC servers


def _rpc_methods(it: Interp, dir_: str, type_: str) -> list[str]:
    out: list[str] = []
    for name in it.prog.methods.get((dir_, type_), []):
        if not name[:1].isupper():
            continue
        _path, f = it.prog.funcs[(dir_, type_, name)]
        types = " ".join(t for _n, t in f["p"])
        if "Context" in types or "Server" in types or "Stream" in types:
            out.append(name)
    return sorted(set(out))


def _impl_type(it: Interp, impl: V, service: str) -> tuple[str, str] | None:
    if isinstance(impl, Struct):
        return impl.dir, impl.type
    want = f"Unimplemented{service}Server"
    for (d, name), (_p, t) in sorted(it.prog.types.items()):
        if any(not fn and ft.lstrip("*").endswith(want) for fn, ft, _tag, _l in t["f"]):
            return d, name
    return None


def grpc_register(it: Interp, fr: Frame, service: str, impl: V, e: list[Any]) -> None:
    it.sink.grpc_impls.setdefault(service, []).append(impl)
    found = _impl_type(it, impl, service)
    if found is None:
        return
    d, t = found
    recv = impl if isinstance(impl, Struct) else Struct(t, dir_=d, known=False)
    for m in _rpc_methods(it, d, t):
        ref = FuncRef(key=(d, t, m), file=it.prog.funcs[(d, t, m)][0], recv=recv)
        hinfo = handler_info(it, ref, fr, e[3], e[4])
        it.sink.routes.append(
            RouteRec(
                "grpc",
                None,
                lit(f"{service}/{m}"),
                ["RPC"],
                hinfo,
                fr.file,
                e[3],
                e[4],
                kind="grpc",
                framework="grpc",
            )
        )
        it.run_handler(ref, hinfo.symbol)


_DESC = re.compile(r"(\w+)_ServiceDesc$")


def grpc_register_desc(
    it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]
) -> V:
    desc = arg(args, 0)
    m = _DESC.search(desc.hint) if isinstance(desc, Unk) else None
    if m:
        grpc_register(it, fr, m.group(1), arg(args, 1), e)
    return Unk("register")


def message_handler(
    it: Interp, fr: Frame, e: list[Any], channel: V, provider: str, handler: V, method: str | None
) -> None:
    """A consumer callback registered with a broker client becomes a message API."""
    if isinstance(handler, Struct) and method:
        mk = it.prog.method_key(handler.dir, handler.type, method)
        if mk is None:
            return
        handler = FuncRef(key=mk, file=it.prog.funcs[mk][0], recv=handler)
    if not isinstance(handler, FuncRef):
        return
    chans = channel.items if isinstance(channel, Seq) else [channel]
    for ch in chans:
        if not isinstance(ch, S):
            continue
        hinfo = handler_info(it, handler, fr, e[3], e[4])
        it.sink.routes.append(
            RouteRec(
                provider,
                None,
                ch,
                ["CONSUME"],
                hinfo,
                fr.file,
                e[3],
                e[4],
                kind="message",
                provider=provider,
                channel=ch,
                framework=provider,
            )
        )
        it.run_handler(handler, hinfo.symbol)


ACTIONS = {
    "verb": verb,
    "verb_arg": verb_arg,
    "match": match,
    "group": group,
    "group_fn": group_fn,
    "route_fn": route_fn,
    "mount": mount,
    "same": same,
    "pattern": pattern,
    "default_mux": default_mux,
    "strip_prefix": strip_prefix,
    "groute": groute,
    "gprefix": gprefix,
    "groute_set": groute_set,
    "gsubrouter": gsubrouter,
    "grpc_register_desc": grpc_register_desc,
}
