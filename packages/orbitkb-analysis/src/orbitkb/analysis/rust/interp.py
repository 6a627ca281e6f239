"""The Rust interpreter: every function of a service run once on its own and again wherever it is
called with known arguments, building route tables (axum ``Router``, actix-web ``App``/``scope``,
rocket ``mount``, warp filters) and folding strings (constants, ``format!``, ``env::var`` with
defaults, struct fields set in constructors or read from the environment). Call, message and
persistence sites are recorded as they are met (``sites``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from orbitkb.analysis.facts import Env, Expr
from orbitkb.analysis.rust import tables as t
from orbitkb.analysis.rust.program import Fn, Program
from orbitkb.analysis.rust.values import (
    Filter,
    FnRef,
    GrpcClient,
    Methods,
    Route,
    Routes,
    concat,
    join,
    unknown,
)

_FORMAT = re.compile(r"\{\{|\}\}|\{([A-Za-z_]\w*)?(?::[^}]*)?\}")
MAX_STEPS = 400_000
MAX_DEPTH = 6
MAX_NESTING = 120  # expressions inside expressions (and the calls they make): Python's stack is the limit
#: methods common enough that a call through an untyped receiver is never resolved by name
_COMMON = frozenset({"new", "get", "post", "put", "delete", "send", "run", "build", "from", "into", "call",
                     "clone", "default", "init", "start", "execute", "map", "and_then", "subscribe", "publish"})  # fmt: skip


class Frame:
    def __init__(self, fn: Fn, env: dict[str, Any], depth: int) -> None:
        self.fn = fn
        self.env = env
        self.depth = depth
        self.produced: list[Any] = []
        self.returned: Any = None


class Interp:
    def __init__(self, prog: Program, on_site: Callable[[Interp, Frame, list[Any]], None]) -> None:
        self.prog = prog
        self.on_site = on_site
        self.steps = 0
        self.exhausted = False
        self.memo: dict[tuple[str, int], tuple[Any, list[Any]]] = {}
        self.running: set[tuple[str, int]] = set()
        self.referenced: set[tuple[str, int]] = set()
        self.produced: dict[tuple[str, int], list[Any]] = {}
        self.struct_fields: dict[tuple[str, str], Expr] = {}
        self.nesting = 0

    # ----------------------------------------------------------------- functions

    def run_all(self, fns: Iterable[Fn] | None = None) -> None:
        """Run each function (by default every one) on its own; others run only where called."""
        for fn in self.prog.fns if fns is None else fns:
            self.run(fn, None, 0)

    def run(self, fn: Fn, args: dict[str, Any] | None, depth: int) -> tuple[Any, list[Any]]:
        """(the value of the function's tail, the routing values it built and did not hand on)."""
        if args is None and fn.key in self.memo:
            return self.memo[fn.key]
        if fn.key in self.running or depth > MAX_DEPTH or self.exhausted:
            return None, []
        self.running.add(fn.key)
        try:
            env: dict[str, Any] = {}
            for name, type_text in fn.params:
                if args is not None and name in args:
                    env[name] = args[name]
                elif "mut " in type_text and "ServiceConfig" in type_text and self._actix(fn):
                    # actix-web configure(fn): the routes are added to the parameter
                    env[name] = Routes()
            frame = Frame(fn, env, depth)
            frame.produced.extend(v for v in env.values() if isinstance(v, Routes))
            for stmt in fn.data.get("stmts") or ():
                self.stmt(stmt, frame)
            tail = self.eval(fn.data["tail"], frame) if fn.data.get("tail") is not None else frame.returned
            if isinstance(tail, (Routes, Filter)):
                frame.produced.append(tail)
            result = (tail, frame.produced)
        finally:
            self.running.discard(fn.key)
        if args is None:
            self.memo[fn.key] = result
            self.produced[fn.key] = frame.produced
        return result

    @staticmethod
    def hand_on(args: list[Any], frame: Frame) -> None:
        """A router passed to a call is one this function built: served unless something absorbs it."""
        for value in args:
            if isinstance(value, (Routes, Filter)) and all(value is not p for p in frame.produced):
                frame.produced.append(value)

    def _actix(self, fn: Fn) -> bool:
        return "actix_web" in (self.prog.files.get(fn.file, {}).get("mentions") or ())

    def stmt(self, stmt: list[Any], frame: Frame) -> None:
        value = self.eval(stmt[2] if stmt[0] == "let" else stmt[1], frame)
        if stmt[0] == "ret" and frame.returned is None:
            frame.returned = value  # the first return a function reaches stands for its value
        if stmt[0] == "let" and stmt[1]:
            frame.env[stmt[1]] = value
        if isinstance(value, (Routes, Filter)) and all(value is not p for p in frame.produced):
            frame.produced.append(value)

    def call_fn(self, fns: list[Fn], args: list[Any], frame: Frame, self_value: Any = None) -> Any:
        """The value of a call to the service's own function (its tail, else the routes it built)."""
        fn = fns[0]
        self.referenced.add(fn.key)
        names = [p[0] for p in fn.params if p[0] not in ("self", "&self", "&mut self")]
        bound = {n: v for n, v in zip(names, args) if v is not None}
        tail, produced = self.run(fn, bound or None, frame.depth + 1)
        if isinstance(tail, (Routes, Filter, Expr, Methods)):
            return tail
        routes = [p for p in produced if isinstance(p, Routes)]
        if routes:
            merged = Routes()
            for r in routes:
                merged.absorb(r)
            return merged
        return tail

    # ----------------------------------------------------------------- expressions

    def eval(self, ir: Any, frame: Frame) -> Any:
        self.steps += 1
        if self.steps > MAX_STEPS:
            self.exhausted = True
            return None
        if not isinstance(ir, list) or not ir or self.nesting > MAX_NESTING:
            return None
        self.nesting += 1
        try:
            return self._eval(ir, frame)
        finally:
            self.nesting -= 1

    def _eval(self, ir: list[Any], frame: Frame) -> Any:
        tag = ir[0]
        if tag == "s":
            return Expr.lit(ir[1])
        if tag == "id":
            return self.name(ir[1], frame)
        if tag == "path":
            return self.path(ir[1], frame)
        if tag == "f":
            return self.field(ir, frame)
        if tag == "call":
            return self.call(ir, frame)
        if tag == "m":
            return self.method(ir, frame)
        if tag == "mac":
            return self.macro(ir, frame)
        if tag == "clo":
            return self.eval(ir[1], frame)
        if tag == "blk":
            for stmt in ir[1]:
                self.stmt(stmt, frame)
            return self.eval(ir[2], frame) if ir[2] is not None else None
        if tag == "bin":
            left, right = self.eval(ir[2], frame), self.eval(ir[3], frame)
            if ir[1] == "+" and (isinstance(left, Expr) or isinstance(right, Expr)):
                return concat(self.as_string(left, ir[2]), self.as_string(right, ir[3]))
            if ir[1] == "/" and isinstance(left, Filter | Expr) and isinstance(right, Filter | Expr):
                return self.warp_segments(ir)
            return None
        if tag == "st":
            for fname, value_ir in ir[2]:
                value = self.eval(value_ir, frame)
                if isinstance(value, Expr):
                    self.struct_fields.setdefault((ir[1], fname), value)
            return None
        if tag == "arr":
            return [self.eval(x, frame) for x in ir[1]]
        return None

    def as_string(self, value: Any, ir: Any = None) -> Expr:
        if isinstance(value, Expr):
            return value
        return unknown(_hint(ir) if ir is not None else "?")

    def string(self, ir: Any, frame: Frame) -> Expr:
        return self.as_string(self.eval(ir, frame), ir)

    def name(self, name: str, frame: Frame) -> Any:
        if name in frame.env:
            return frame.env[name]
        if name in self.prog.consts:
            return self.eval(self.prog.const(name, frame.fn.file), frame)
        if name in self.prog.attr_routes:
            return self.attr_table([name])
        fns = self.prog.free.get(name)
        return FnRef(fns) if fns else None

    def path(self, text: str, frame: Frame) -> Any:
        last = text.rsplit("::", 1)[-1]
        if last in self.prog.consts:
            return self.eval(self.prog.const(last, frame.fn.file), frame)
        if last in self.prog.attr_routes:
            return self.attr_table([last])
        fns = self.prog.lookup(text, frame.fn.owner)
        return FnRef(fns) if fns else None

    def field(self, ir: list[Any], frame: Frame) -> Any:
        obj, name = ir[1], ir[2]
        if name in self.prog.env_fields:
            return Expr((self.prog.env_fields[name],))
        owner = frame.fn.owner if obj == ["id", "self"] else None
        if owner is not None and (owner, name) in self.struct_fields:
            return self.struct_fields[(owner, name)]
        found = [v for (_, f), v in self.struct_fields.items() if f == name]
        if owner is None and len({str(v) for v in found}) == 1:
            return found[0]
        self.eval(obj, frame)
        return None

    def attr_table(self, names: list[str]) -> Routes:
        routes = Routes()
        for name in names:
            for r in self.prog.attr_routes.get(name, []):
                self.referenced.add(r.fn.key)
                routes.items.append(Route(r.method, join(r.path), r.fn.handler, r.fn.file, r.line))
        return routes

    # ----------------------------------------------------------------- calls

    def call(self, ir: list[Any], frame: Frame) -> Any:
        callee, args_ir = ir[1], ir[2]
        text = callee[1] if callee and callee[0] in ("id", "path") else ""
        last = text.rsplit("::", 1)[-1]
        args = [self.eval(a, frame) for a in args_ir]
        self.on_site(self, frame, ir)
        self.hand_on(args, frame)
        if not text:
            return None
        if text in t.ROUTER_NEW or text.endswith(("Router::new", "App::new")) or text in ("rocket::build", "rocket::ignite"):
            return Routes()
        if last in ("scope", "resource") and args and isinstance(args[0], Expr):
            return Routes(prefix=args[0].literal() or "")
        if text.endswith(("Scope::new", "Resource::new")) and args and isinstance(args[0], Expr):
            return Routes(prefix=args[0].literal() or "")
        if text.startswith("warp::") or text in ("path", "path::param", "path::end"):
            found = self.warp_call(text, args_ir, args, ir[3], frame)
            if found is not None:
                return found
        if last in t.VERBS and (text == last or "routing::" in text or "web::" in text or text.startswith("axum::")):
            handler = _handler(args_ir[0]) if args_ir else None
            return Methods([(t.VERBS[last], handler, frame.fn.file, ir[3])])
        if last == "method" and "web::" in text and args_ir:
            verb = _hint(args_ir[0]).rsplit("::", 1)[-1].upper()
            return Methods([(verb, None, frame.fn.file, ir[3])])
        if last == "on" and len(args_ir) == 2:
            verb = _hint(args_ir[0]).rsplit("::", 1)[-1].upper()
            return Methods([(verb if verb in t.VERBS.values() else "ANY", _handler(args_ir[1]), frame.fn.file, ir[3])])
        if text.endswith(("HttpServer::new", "Server::new")) and args:
            return args[0]
        if last in ("serve", "run") and len(args) >= 2:
            return args[1] if isinstance(args[1], (Routes, Filter)) else None
        if last == "serve" and args and isinstance(args[0], (Routes, Filter)):
            return args[0]
        if text.endswith(t.ENV_READERS) and args and isinstance(args[0], Expr) and args[0].literal():
            return Expr((Env(args[0].literal() or ""),))
        if text in ("String::from", "String::new", "Into::into", "From::from", "Cow::from", "Url::parse",
                    "url::Url::parse", "reqwest::Url::parse", "Uri::from_static") and args:  # fmt: skip
            return args[0] if isinstance(args[0], Expr) else None
        service = grpc_client_type(self.prog, text)
        if service is not None:
            return GrpcClient(service, args_ir, frame)
        fns = self.prog.lookup(text, frame.fn.owner)
        if fns:
            return self.call_fn(fns, args, frame)
        return None

    def method(self, ir: list[Any], frame: Frame) -> Any:
        recv_ir, name, args_ir = ir[1], ir[2], ir[3]
        recv = self.eval(recv_ir, frame)
        args = [self.eval(a, frame) for a in args_ir]
        self.on_site(self, frame, ir)
        self.hand_on(args, frame)
        if isinstance(recv, Routes):
            return self.routes_method(recv, name, args_ir, args, ir[4], frame)
        if isinstance(recv, Methods):
            if name in t.VERBS and args_ir:
                recv.items.append((t.VERBS[name], _handler(args_ir[0]), frame.fn.file, ir[4]))
            elif name == "to" and args_ir:
                recv.items[:] = [(m, h or _handler(args_ir[0]), f, ln) for m, h, f, ln in recv.items]
            return recv
        if isinstance(recv, Filter):
            return self.filter_method(recv, name, args_ir, args, ir[4], frame)
        if isinstance(recv, Expr):
            if name in t.STRING_KEEP:
                return recv
            if name in t.DEFAULTS and len(recv.parts) == 1 and isinstance(recv.parts[0], Env):
                default = args[0] if args else None
                text = default.literal() if isinstance(default, Expr) else None
                return Expr((Env(recv.parts[0].name, text),)) if text is not None else recv
            if name in ("join", "push_str") and args and isinstance(args[0], Expr):
                return concat(recv, args[0])
            if name in ("trim_end_matches", "trim_start_matches", "replace", "to_uppercase"):
                return recv
            return None
        if name in t.PASS_THROUGH or name in ("unwrap", "expect", "await", "clone"):
            return recv
        if recv is None and name not in _COMMON:
            owner = frame.fn.owner if recv_ir == ["id", "self"] else None
            fns = [f for f in self.prog.methods.get(name, []) if owner is None or f.owner == owner]
            if fns and (owner is not None or len({f.owner for f in fns}) == 1):
                return self.call_fn(fns, args, frame)
        return None

    def routes_method(
        self, recv: Routes, name: str, args_ir: list[Any], args: list[Any], line: int, frame: Frame
    ) -> Any:
        if name in t.PASS_THROUGH:
            return recv
        if name == "route" and len(args) == 2 and isinstance(args[1], Methods):
            path = args[0].literal() if isinstance(args[0], Expr) else None
            for method, handler, file, _ in args[1].items:
                recv.items.append(Route(method, join(path or ""), handler or "<closure>", file, line))
            return recv
        if name == "route" and len(args) == 1 and isinstance(args[0], Methods):  # actix resource.route(...)
            for method, handler, file, _ in args[0].items:
                recv.items.append(Route(method, "/", handler or "<closure>", file, line))
            return recv
        if name in ("to", *t.VERBS) and len(args_ir) == 1 and not isinstance(args[0], (Routes, Expr)):
            method = "ANY" if name == "to" else t.VERBS[name]
            recv.items.append(Route(method, "/", _handler(args_ir[0]), frame.fn.file, line))
            return recv
        if name in ("nest", "mount", "nest_api") and len(args) == 2:
            prefix = args[0].literal() if isinstance(args[0], Expr) else None
            for child in _as_routes(args[1], self):
                recv.absorb(child, prefix or "")
            return recv
        if name in ("merge", "service", "services", "configure"):
            for value in args:
                if name == "configure" and isinstance(value, FnRef):
                    param = Routes()
                    self.referenced.add(value.fns[0].key)
                    fn = value.fns[0]
                    first = next((p[0] for p in fn.params), None)
                    self.run(fn, {first: param} if first else None, frame.depth + 1)
                    recv.absorb(param)
                    continue
                for child in _as_routes(value, self):
                    recv.absorb(child)
            return recv
        return recv

    # ----------------------------------------------------------------- warp

    def warp_call(self, text: str, args_ir: list[Any], args: list[Any], line: int, frame: Frame) -> Any:
        last = text.rsplit("::", 1)[-1]
        where = (frame.fn.file, line)
        if last == "path" and args and isinstance(args[0], Expr):
            return Filter([((args[0].literal() or "{param}",), None, None, *where)])
        if last == "param":
            return Filter([(("{param}",), None, None, *where)])
        if last in ("end", "any", "full", "query", "body", "json", "header", "headers_cloned", "form"):
            return Filter([((), None, None, *where)])
        if last in t.VERBS:
            return Filter([((), t.VERBS[last], None, *where)])
        if last in ("serve",) and args and isinstance(args[0], Filter):
            return args[0]
        return None

    def warp_segments(self, ir: list[Any]) -> Filter:
        segments: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, list) and node and node[0] == "bin" and node[1] == "/":
                walk(node[2])
                walk(node[3])
            elif isinstance(node, list) and node and node[0] == "s":
                segments.append(node[1])
            else:
                segments.append("{param}")

        walk(ir)
        return Filter([(tuple(segments), None, None, "", 0)])

    def filter_method(self, recv: Filter, name: str, args_ir: list[Any], args: list[Any], line: int, frame: Frame) -> Any:
        if name == "and" and args and isinstance(args[0], Filter):
            args[0].consumed = True
            recv.consumed = True
            out = Filter()
            for segs, method, handler, file, ln in recv.items:
                for segs2, method2, handler2, file2, ln2 in args[0].items:
                    at = (file2, ln2) if segs2 and file2 else (file or file2, ln or ln2)  # where the path is written
                    out.items.append((segs + segs2, method or method2, handler or handler2, *at))
            return out
        if name == "or" and args and isinstance(args[0], Filter):
            args[0].consumed = True
            recv.consumed = True
            return Filter([*recv.items, *args[0].items])
        if name in ("and_then", "map", "then") and args_ir:
            recv.consumed = True
            handler = _handler(args_ir[0])
            return Filter([(s, m, h or handler, f or frame.fn.file, ln or line) for s, m, h, f, ln in recv.items])
        return recv

    # ----------------------------------------------------------------- macros

    def macro(self, ir: list[Any], frame: Frame) -> Any:
        name, args_ir = ir[1], ir[2]
        short = name.rsplit("::", 1)[-1]
        self.on_site(self, frame, ir)
        if short in ("routes", "services"):
            names = [_handler(a) for a in args_ir]
            return self.attr_table([n for n in names if n])
        if short == "path" and args_ir:
            segs = self.warp_segments(args_ir[0]) if args_ir[0][0] == "bin" else Filter(
                [((args_ir[0][1],) if args_ir[0][0] == "s" else ("{param}",), None, None, "", 0)]
            )
            segs.items = [(s, m, h, frame.fn.file, ir[3]) for s, m, h, _, _ in segs.items]
            return segs
        if short in ("format", "format_args") and args_ir:
            return self.format(args_ir, frame)
        if short == "concat":
            return concat(*(self.string(a, frame) for a in args_ir))
        if short == "env" and args_ir and args_ir[0][0] == "s":
            return Expr((Env(args_ir[0][1]),))
        for a in args_ir:
            self.eval(a, frame)
        return None

    def format(self, args_ir: list[Any], frame: Frame) -> Expr:
        template = self.eval(args_ir[0], frame)
        text = template.literal() if isinstance(template, Expr) else None
        if text is None:
            return unknown("format!")
        positional = iter(args_ir[1:])
        named = {a[1][1]: a[2] for a in args_ir[1:] if a and a[0] == "bin" and a[1] == "=" and a[2] and a[2][0] == "id"}
        parts: list[Expr] = []
        pos = 0
        for m in _FORMAT.finditer(text):
            parts.append(Expr.lit(text[pos : m.start()]))
            token = m.group(0)
            if token in ("{{", "}}"):
                parts.append(Expr.lit(token[0]))
            elif m.group(1):
                ident = m.group(1)
                parts.append(self.string(named.get(ident, ["id", ident]), frame))
            else:
                arg = next(positional, None)
                parts.append(self.string(arg, frame) if arg is not None else unknown("{}"))
            pos = m.end()
        parts.append(Expr.lit(text[pos:]))
        return concat(*parts)


def _as_routes(value: Any, it: Interp) -> list[Routes]:
    if isinstance(value, Routes):
        return [value]
    if isinstance(value, FnRef):
        fn = value.fns[0]
        it.referenced.add(fn.key)
        tail, produced = it.run(fn, None, 0)
        return [tail] if isinstance(tail, Routes) else [p for p in produced if isinstance(p, Routes)]
    return []


def _handler(ir: Any) -> str:
    if isinstance(ir, list) and ir and ir[0] in ("id", "path"):
        return str(ir[1]).rsplit("::", 1)[-1]
    if isinstance(ir, list) and ir and ir[0] == "m" and ir[2] in ("layer", "with_state", "boxed"):
        return _handler(ir[1])
    return "<closure>"


def _hint(ir: Any) -> str:
    if isinstance(ir, list) and ir:
        if ir[0] in ("id", "path", "o"):
            return str(ir[1])
        if ir[0] == "f":
            return f"{_hint(ir[1])}.{ir[2]}"
        if ir[0] == "m":
            return f"{_hint(ir[1])}.{ir[2]}()"
        if ir[0] == "call":
            return f"{_hint(ir[1])}()"
    return "?"


def grpc_client_type(prog: Program, text: str) -> str | None:
    """The proto service of a tonic client constructor (``TideServiceClient::connect``): a type named
    through its ``<x>_client`` module or imported from one; None for anything else."""
    parts = text.split("::")
    if len(parts) < 2 or parts[-1] not in t.GRPC_CLIENT_CTORS:
        return None
    name = parts[-2]
    if not name.endswith("Client") or len(name) <= len("Client"):
        return None
    return name[: -len("Client")] if "_client::" in text or name in prog.grpc_clients else None

