"""Helpers shared by the library actions: recording calls and messages with their attribution,
building library objects, reading arguments."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Env, Prop
from orbitkb.analysis.golang.sink import CallRec, HandlerInfo, MsgRec
from orbitkb.analysis.golang.tables import STATIC_HANDLERS
from orbitkb.analysis.golang.values import FuncRef, Obj, S, Seq, Struct, Unk, V, as_parts, ir_text

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp


def arg(args: list[V], i: int) -> V:
    if -len(args) <= i < len(args):
        return args[i]
    return Unk("?")


def as_str(v: V) -> S:
    return v if isinstance(v, S) else S(as_parts(v))


def literal(v: V) -> str | None:
    return v.literal() if isinstance(v, S) else None


def env_value(name: str, default: str | None = None) -> S:
    return S((Env(name, default),))


def prop_value(defaults: dict[str, str], key: str) -> S:
    return S((Prop(key, defaults.get(key)),))


def new_obj(kind: str, attrs: dict[str, Any], unbound: bool = False) -> Obj:
    if kind == "router":
        return Obj("router", lib=attrs.get("lib", ""), parents=[], mounts=[], unbound=unbound)
    return Obj(kind, **attrs)


def pass_through(args: list[V], name: str | list[Any]) -> V:
    """An unknown call: keep a handler passed through it (http.HandlerFunc(h), middleware(h));
    ``name`` is the call's name or its intermediate form (then the hint is its source text)."""
    for a in args:
        if isinstance(a, FuncRef):
            return a
    return Unk(ir_text(name) if isinstance(name, list) else name + "(...)")


def attribution(fr: Frame) -> tuple[str | None, str]:
    return (fr.handler if fr.handler is not None and fr.hop <= 1 else None), fr.component


def emit_call(
    it: Interp,
    fr: Frame,
    e: list[Any],
    kind: str,
    client: str,
    url: V | None,
    method: str | None,
    grpc_service: str | None = None,
    ctor: bool = False,
) -> None:
    line, end = e[3], e[4]
    surl = as_str(url) if url is not None else None
    param_url = bool(surl is not None and surl.has_param())
    site_fr = fr
    if kind == "http" and not it.probe and fr.caller is not None and fr.parent is None:
        key = fr.fn
        if line in it.wrapper_lines(key):
            # a thin wrapper: report the call where the wrapper is called, with the folded URL
            it.sink.resited.add((fr.file, line))
            site_fr = fr.caller
            line = end = fr.site
            client = "wrapper:" + (f"{key[1]}.{key[2]}" if key[1] else key[2])
    api, comp = attribution(site_fr)
    it.sink.calls.append(
        CallRec(kind, site_fr.file, line, end, client, surl, method, grpc_service, api, comp, param_url, ctor)
    )


def emit_message(
    it: Interp, fr: Frame, e: list[Any], direction: str, channel: V, provider: str, client: str
) -> None:
    chans = channel.items if isinstance(channel, Seq) else [channel]
    api, comp = attribution(fr)
    for ch in chans:
        if isinstance(ch, Seq):
            emit_message(it, fr, e, direction, ch, provider, client)
            continue
        if isinstance(ch, Unk) and ch.param is not None and fr.caller is None:
            continue  # a helper's own parameter, run with no caller: its call sites name the channel
        it.sink.messages.append(
            MsgRec(direction, as_str(ch), provider, fr.file, e[3], e[4], client, api, comp)
        )


def method_name(v: V | str | None) -> str | None:
    if isinstance(v, str):
        return v
    text = literal(v) if v is not None else None
    return text.upper() if text else None


def handler_info(it: Interp, v: V, fr: Frame, line: int, end: int) -> HandlerInfo:
    """The handler symbol, location and doc comment for a registered handler value."""
    prog = it.prog
    if isinstance(v, FuncRef):
        target = v.inner or v
        key = target.key or target.alias
        if key is not None and key in prog.funcs:
            path, f = prog.funcs[key]
            sym = f"{key[1]}.{key[2]}" if key[1] else key[2]
            if key[1]:
                return HandlerInfo(sym, path, f["l"], f["e"], f["doc"], key[1], "class", key[0])
            stem = posixpath.splitext(posixpath.basename(path))[0]
            return HandlerInfo(sym, path, f["l"], f["e"], f["doc"], stem, "module")
        if target.lit is not None and target.file in prog.files:
            lit_ir = prog.files[target.file]["lits"][target.lit]
            stem = posixpath.splitext(posixpath.basename(target.file))[0]
            comp = fr.component if fr.file == target.file and fr.component else stem
            kind = "class" if comp != stem else "module"
            return HandlerInfo(
                f"<anonymous>@{lit_ir['l']}", target.file, lit_ir["l"], lit_ir["e"], None, comp, kind
            )
    if isinstance(v, Struct):
        mk = prog.method_key(v.dir, v.type, "ServeHTTP")
        if mk is not None:
            return handler_info(it, FuncRef(key=mk, file=prog.funcs[mk][0], recv=v), fr, line, end)
    stem = posixpath.splitext(posixpath.basename(fr.file))[0]
    if isinstance(v, Obj):
        hint = STATIC_HANDLERS.get(v.kind, v.kind)
    else:
        hint = v.hint if isinstance(v, Unk) else (literal(v) or type(v).__name__)
    return HandlerInfo(hint, fr.file, line, end, None, stem, "module")
