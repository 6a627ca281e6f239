"""Router actions: routes, groups, sub-routers and mounts of net/http, gin, echo, chi, gorilla/mux,
fiber and httprouter, plus gRPC server registrations (Register<X>Server)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Lit
from orbitkb.analysis.golang.emit import arg, handler_info, literal, method_name, new_obj
from orbitkb.analysis.golang.sink import RouteRec
from orbitkb.analysis.golang.tables import FRAMEWORKS, HANDLER_LAST, STATIC_HANDLERS
from orbitkb.analysis.golang.values import FuncRef, Obj, S, Seq, Struct, Unk, V, concat, lit

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

Args = list[V]


def _pick_handler(lib: str, rest: Args) -> V:
    if not rest:
        return Unk("handler")
    funcs = [a for a in rest if isinstance(a, (FuncRef, Struct))]
    if lib in HANDLER_LAST:
        return funcs[-1] if funcs else rest[-1]
    return rest[0]


def _unstrip(handler: V) -> V:
    while isinstance(handler, Obj) and handler.kind == "strip":
        handler = handler.a["inner"]
    return handler


def add_route(
    it: Interp, fr: Frame, e: list[Any], router: Obj | None, seg: V, methods: list[str], handler: V, lib: str
) -> RouteRec:
    handler = _unstrip(handler)
    if isinstance(handler, Obj) and handler.kind in STATIC_HANDLERS and methods in ([], ["ANY"]):
        methods = ["GET"]  # a file server answers reads only
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
    child = _unstrip(args[1])
    if isinstance(child, Obj) and child.kind == "router":
        child.a["mounts"].append((recv, args[0]))
    elif isinstance(child, Obj) and child.kind in STATIC_HANDLERS:
        add_route(it, fr, e, recv, concat(args[0], lit("/*")), ["GET"], child, _lib(recv))
    elif isinstance(child, (FuncRef, Struct)):
        add_route(it, fr, e, recv, args[0], ["ANY"], child, _lib(recv))
    return recv


def same(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: dict[str, Any]) -> V:
    return recv if recv is not None else Unk("same")


_HOST = re.compile(r"^[^/\s]+(?=/)")
_LOOSE_PATH = re.compile(r"^\s*(?:[A-Z]+\s+)?/")
_VERB = re.compile(r"^\s*([A-Z]+)\s+(?=/|$)")


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
        exact = text.endswith("{$}")
        text = _HOST.sub("", text[:-3] if exact else text)
        if not exact and text.endswith("/") and text != "/":
            text += "*"  # a pattern ending in "/" serves the whole subtree
        pat = lit(text)
    elif isinstance(pat, S) and pat.parts and isinstance(pat.parts[0], Lit):
        # "GET " + base + "/items": the method is the literal head of a pattern built at run time
        verb = _VERB.match(pat.parts[0].text)
        if verb:
            method = verb.group(1)
            pat = S((Lit(pat.parts[0].text[verb.end() :]), *pat.parts[1:]))
    if _mounted(recv, args[1]):
        return Unk("mount")
    handler = _unstrip(args[1])
    add_route(it, fr, e, recv, pat, [method], handler, "http")
    return Unk("route")


def loose_handle(it: Interp, fr: Frame, args: Args, e: list[Any]) -> V | None:
    """``mux.Handle("/path", h)`` on a mux whose type is out of sight (a wrapper from a package
    outside the service): read as net/http, and left open to gorilla's ``.Methods(...)``."""
    text = literal(args[0]) if len(args) >= 2 else None
    handler = _unstrip(args[1]) if len(args) >= 2 else None
    if text is None or not _LOOSE_PATH.match(text):
        return None
    if not isinstance(handler, (FuncRef, Struct)) and not (
        isinstance(handler, Obj) and handler.kind in STATIC_HANDLERS
    ):
        return None
    router = new_obj("router", {"lib": "http"}, unbound=True)
    before = len(it.sink.routes)
    pattern(it, fr, router, args, e, {})
    rec = it.sink.routes[-1] if len(it.sink.routes) > before else None
    return Obj("groute", router=router, path=args[0], prefix=None, methods=[], rec=rec)


def _mounted(recv: Obj, handler: V) -> bool:
    """A router served under a path (bare, or through StripPrefix): its routes get the prefix."""
    if isinstance(handler, Obj) and handler.kind == "strip":
        inner = handler.a["inner"]
        if isinstance(inner, Obj) and inner.kind == "router":
            inner.a["mounts"].append((recv, handler.a["prefix"]))
            return True
    if isinstance(handler, Obj) and handler.kind == "router":
        handler.a["mounts"].append((recv, lit("")))  # routes of the inner mux carry full paths
        return True
    return False


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
    if gr.a["path"] is None and gr.a["prefix"] is not None:
        # PathPrefix(p).Handler(h): h serves everything under p, or is a router mounted there
        if isinstance(router, Obj) and _mounted(router, handler):
            return
        seg: V = concat(gr.a["prefix"], lit("/*"))
    else:
        seg = gr.a["path"] if gr.a["path"] is not None else lit("")
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
}
