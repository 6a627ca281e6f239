"""A small abstract interpreter over the Go intermediate form.

It walks function bodies in order (no control flow), tracking values: strings folded into
Lit/Env/Prop parts, library objects (routers, clients), the service's own structs and function
values. Calls into the service's own functions are followed with the arguments bound (bounded
depth, memoized), so a router group passed to another function keeps its prefix, a client built
from a config struct keeps its base URL, and a call reached from a route handler is attributed to
it. Library calls are dispatched through the tables in ``tables.py`` to ``actions``.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from typing import Any

from orbitkb.analysis.golang import actions
from orbitkb.analysis.golang.frame import Frame
from orbitkb.analysis.golang.outparams import OutParams
from orbitkb.analysis.golang.program import FuncKey, Program
from orbitkb.analysis.golang.providers import Providers
from orbitkb.analysis.golang.resolve import Resolver
from orbitkb.analysis.golang.sink import Sink
from orbitkb.analysis.golang.tables import (
    ANY_RECEIVER,
    EXT_FUNCS,
    GROUTE_METHODS,
    LIBS,
    OBJ_METHODS,
    ROUTER_METHODS,
    normalize_import,
)
from orbitkb.analysis.golang.values import (
    FuncRef,
    Obj,
    Pkg,
    S,
    Seq,
    Spread,
    Struct,
    Tup,
    Unk,
    V,
    concat,
    env_fallback,
    lit,
)

MAX_DEPTH = 7
MAX_STEPS = 400_000
_TAG = re.compile(r'(\w+):"([^"]*)"')
_CONVERSIONS = frozenset({"string", "[]byte", "any", "interface{}"})


class Interp(Resolver):
    def __init__(
        self, prog: Program, library: frozenset[str] = frozenset(), foreign: frozenset[str] = frozenset()
    ) -> None:
        self.prog = prog
        #: files of shared packages: their functions run only when the service's code calls them
        self.library = library
        #: library files another service owns: never run on their own (their tables are its)
        self.foreign = foreign
        self.sink = Sink(prog)
        self.steps = 0
        self.exhausted = False
        self.probe = False
        self.ran: set[FuncKey] = set()
        self._memo: dict[Any, V] = {}
        self._active: set[Any] = set()
        self._gvals: dict[tuple[str, str], V] = {}
        self._wrappers: dict[FuncKey, frozenset[int]] = {}
        self._handlers_run: set[Any] = set()
        self.out_params = OutParams(prog)
        self.providers = Providers(prog, foreign)
        self.field_values: dict[tuple[str, str], dict[Any, V]] = {}
        #: values functional options set (``WithExchange("x")`` applied): they override defaults
        self.option_values: dict[tuple[str, str], dict[Any, V]] = {}
        self._in_option = 0
        self.prop_defaults: dict[str, str] = {}
        self.default_mux: Obj | None = None
        self.errors: list[tuple[str, str]] = []

    # ------------------------------------------------------------------ driving
    def run_all(self) -> None:
        order = self.prog.entry_order()
        self._run(k for k in order if self.prog.funcs[k][0] not in self.library)
        if self.library:
            # a shared package's code the service never visibly calls (through an interface, a
            # DI container) still names the tables and collections it stores; its routes, calls
            # and messages are the service's only when its own code reaches them
            saved, self.sink = self.sink, Sink(self.prog)
            try:
                self._run(
                    k for k in order if self.prog.funcs[k][0] in self.library and self.prog.funcs[k][0] not in self.foreign
                )
            finally:
                saved.entities.extend(self.sink.entities)
                for model, line in self.sink.models.items():
                    saved.models.setdefault(model, line)
                self.sink = saved

    def _run(self, keys: Iterable[FuncKey]) -> None:
        for key in keys:
            if key not in self.ran and not self.exhausted:
                try:
                    self.run_function(key, None, [], None, 0)
                except RecursionError:
                    self.errors.append((self.prog.funcs[key][0], f"expression nesting too deep in {key[2]}"))
                    self._active.clear()

    # ------------------------------------------------------------------ functions
    def component_of(self, key: FuncKey, path: str) -> str:
        return key[1] or posixpath.splitext(posixpath.basename(path))[0]

    def run_function(
        self,
        key: FuncKey,
        recv: V | None,
        args: list[V],
        caller: Frame | None,
        site: int,
        handler: str | None = None,
        arg_ir: list[Any] | None = None,
    ) -> V:
        found = self.prog.func(key)
        if found is None:
            return Unk(key[2])
        path, f = found
        if self.exhausted or (self.probe and caller is not None):
            return self.typed(f["res"], path)
        depth = caller.depth + 1 if caller is not None else 0
        h: str | None = handler
        hop = 0
        if handler is None and caller is not None and caller.handler is not None:
            h, hop = caller.handler, caller.hop + 1
        if depth > MAX_DEPTH:
            return self.typed(f["res"], path)
        # a wrapper reports its call at each call site, so its interpretations differ per site
        where = (caller.file, site) if caller is not None and self.wrapper_lines(key) else None
        memo_key = (key, recv.sig() if recv else None, tuple(a.sig() for a in args), h, min(hop, 2), where)
        refs = self._out_params(key, f, caller, arg_ir)
        if memo_key in self._memo and not refs:  # writes through pointers are the caller's: redo them
            return self._memo[memo_key]
        if key in self._active:
            return self.typed(f["res"], path)
        self._active.add(key)
        self.ran.add(key)
        fr = Frame(path, key)
        fr.handler, fr.hop, fr.depth, fr.caller, fr.site = h, hop, depth, caller, site
        fr.component = self.component_of(key, path)
        fr.refs = refs
        if f["rn"]:
            fr.vars[f["rn"]] = recv if recv is not None else self.recv_default(key, path)
        self._bind_params(fr, f["p"], args, caller is None)
        result = self._exec_frame(fr, f["b"], f["res"], key)
        self._active.discard(key)
        self._memo[memo_key] = result
        return result

    def _out_params(
        self, key: FuncKey, f: dict[str, Any], caller: Frame | None, arg_ir: list[Any] | None
    ) -> dict[str, tuple[Frame, list[Any]]]:
        """Pointer parameters the function writes through (``*target = v``), bound to what the
        caller passed (``&cfg.addr``), so a helper like ``mapEnv(&cfg.addr, "ADDR")`` fills it."""
        if caller is None or not arg_ir or not self.out_params.writes(key):
            return {}
        out: dict[str, tuple[Frame, list[Any]]] = {}
        for (name, typ), node in zip(f["p"], arg_ir, strict=False):
            if not typ.startswith("*") or not isinstance(node, list) or node[0] not in ("id", "sel"):
                continue
            up = _ref_of(caller, node[1]) if node[0] == "id" else None
            out[name] = up if up is not None else (caller, node)
        return out

    def recv_default(self, key: FuncKey, path: str) -> V:
        return Struct(key[1], dir_=posixpath.dirname(path), known=False)

    def run_lit(
        self, ref: FuncRef, args: list[V], caller: Frame | None, site: int, handler: str | None = None
    ) -> V:
        if ref.lit is None or self.exhausted:
            return Unk("func")
        data = self.prog.files.get(ref.file)
        if data is None or ref.lit >= len(data["lits"]):
            return Unk("func")
        ref.used = True
        lit_ir = data["lits"][ref.lit]
        closure: Frame | None = ref.closure
        sig = (ref.file, ref.lit, id(closure), handler, tuple(a.sig() for a in args))
        if sig in self._active:
            return Unk("func")
        self._active.add(sig)
        fr = Frame(ref.file, closure.fn if closure else ("lit", ref.file, ref.lit), parent=closure)
        base = closure or caller
        fr.depth = (caller.depth + 1) if caller else (base.depth + 1 if base else 0)
        if handler is not None:
            fr.handler, fr.hop = handler, 0
        elif base is not None:
            fr.handler, fr.hop = base.handler, base.hop
        fr.component = base.component if base else posixpath.splitext(posixpath.basename(ref.file))[0]
        fr.caller, fr.site = caller, site
        self._bind_params(fr, lit_ir["p"], args, not args)
        option = self._option_shaped(lit_ir["p"], ref.file)
        self._in_option += option
        try:
            result = self._exec_frame(fr, lit_ir["b"], "", None)
        finally:
            self._in_option -= option
        self._active.discard(sig)
        return result

    def _option_shaped(self, params: list[list[str]], path: str) -> int:
        """1 for a functional option: a closure whose one parameter points to one of the
        service's structs (``func(p *publisher) { p.exchange = name }``); the fields it sets are
        what the code configures, over the defaults its constructor writes."""
        if len(params) != 1 or not params[0][1].startswith("*"):
            return 0
        return 1 if isinstance(self.typed(params[0][1], path), Struct) else 0

    def call_value(self, fv: V, args: list[V], fr: Frame, line: int, arg_ir: list[Any] | None = None) -> V:
        if isinstance(fv, FuncRef):
            fv.used = True
            if fv.lit is not None:
                return self.run_lit(fv, args, fr, line)
            if fv.key is not None:
                return self.run_function(fv.key, fv.recv, args, fr, line, arg_ir=arg_ir)
        if isinstance(fv, Seq):
            # a range variable stands for every element: ``for _, opt := range opts { opt(p) }``
            # applies each functional option (or runs each hook) in turn
            for item in fv.items:
                if isinstance(item, FuncRef):
                    self.call_value(item, args, fr, line, arg_ir)
        return Unk("call")

    def _bind_params(self, fr: Frame, params: list[list[str]], args: list[V], standalone: bool) -> None:
        for i, (name, typ) in enumerate(params):
            if name == "_":
                continue
            if typ.startswith("..."):
                rest = args[i:]
                fr.vars[name] = rest[0] if len(rest) == 1 and isinstance(rest[0], Spread) else Seq(rest)
            elif i < len(args):
                fr.vars[name] = args[i]
            else:
                v = self._provided(typ, fr) if standalone else None
                v = v if v is not None else self.typed(typ, fr.file)
                fr.vars[name] = Unk(name, param=name) if isinstance(v, Unk) else v

    def _provided(self, typ: str, fr: Frame) -> V | None:
        """A parameter of a function nobody calls, from the service's one constructor of its type."""
        if self.probe:
            return None
        key = self.providers.of(typ, fr.file, fr.fn)
        if key is None or key in self._active:
            return None
        v = self.run_function(key, None, [], None, 0)
        v = v.items[0] if isinstance(v, Tup) and v.items else v
        return None if isinstance(v, Unk) else v

    def _exec_frame(self, fr: Frame, body: list[Any], res_type: str, key: FuncKey | None) -> V:
        self.exec_body(body, fr)
        for ref in fr.pending:
            if not ref.used:
                ref.used = True
                self.run_lit(ref, [], None, 0)
        return self._result(fr, res_type, key)

    def _result(self, fr: Frame, res_type: str, key: FuncKey | None) -> V:
        if not fr.returns:
            return self.typed(res_type, fr.file) if res_type else Unk("void")
        firsts = [r[0] for r in fr.returns if r]
        if not firsts:
            return Unk("void")
        best = firsts[0]
        for v in firsts[1:]:
            fb = env_fallback(best, v)
            if fb is not None:
                best = fb
            elif isinstance(best, Unk) and not isinstance(v, Unk):
                best = v
            elif _zero_of(best, v):
                best = v  # ``return T{}, err`` on an error path: the built value is the result
        if isinstance(best, FuncRef) and best.lit is not None and best.alias is None and key is not None:
            best = FuncRef(lit=best.lit, file=best.file, closure=best.closure, alias=key, inner=best.inner)
        full = next((r for r in fr.returns if r and r[0] is best), fr.returns[0])
        if len(full) > 1:
            return Tup([best, *full[1:]])
        return best

    # ------------------------------------------------------------------ statements
    def exec_body(self, body: list[Any], fr: Frame) -> None:
        for st in body:
            self.steps += 1
            if self.steps > MAX_STEPS:
                self.exhausted = True
                return
            op = st[0]
            if op == "x":
                self.eval(st[1], fr)
            elif op == "set":
                self._set(st, fr)
            elif op == "var":
                _, names, typ, values, _line = st
                if values:
                    self._set(["set", [["id", n] for n in names], values, _line, ":="], fr)
                else:
                    for n in names:
                        fr.vars[n] = self.zero(typ or "", fr.file)
            elif op == "ret":
                fr.returns.append([self.eval(e, fr) for e in st[1]])

    def _set(self, st: list[Any], fr: Frame) -> None:
        _, lhs, rhs, _line, op = st
        if op == "range":
            v = self.eval(rhs[0][1], fr) if rhs else Unk("range")
            if lhs:
                self.assign(lhs[-1], v if isinstance(v, Seq) else Unk("item"), fr, ":=")
            return
        if len(rhs) == 1 and len(lhs) > 1:
            v = self.eval(rhs[0], fr)
            items = v.items if isinstance(v, Tup) else [v]
            for i, target in enumerate(lhs):
                self.assign(target, items[i] if i < len(items) else Unk("_"), fr, op)
            return
        vals = [self.eval(r, fr) for r in rhs]
        for target, v in zip(lhs, vals, strict=False):
            if isinstance(v, Tup):
                v = v.items[0]
            self.assign(target, v, fr, op)

    def assign(self, target: list[Any], v: V, fr: Frame, op: str) -> None:
        kind = target[0]
        if kind == "deref":
            inner = target[1]
            ref = _ref_of(fr, inner[1]) if inner[0] == "id" else None
            if ref is not None:
                self.assign(ref[1], v, ref[0], "=")
                return
            target, kind = inner, inner[0]
        if kind == "id":
            name = target[1]
            if name == "_":
                return
            scope = fr
            if op != ":=":
                while scope is not None and name not in scope.vars:
                    scope = scope.parent  # type: ignore[assignment]
            if scope is None:
                gkey = (fr.dir, name)
                if gkey in self.prog.gvars:
                    old = self.global_value(gkey)
                    self._gvals[gkey] = self._combine(old, v, op)
                    return
                scope = fr
            old = scope.vars.get(name)
            scope.vars[name] = self._combine(old, v, op) if old is not None else v
        elif kind == "sel":
            obj = self.eval(target[1], fr)
            if op == "+=" and isinstance(obj, Struct | Obj):
                # ``client.Server += "/"``: appended to the field's value, not set to the suffix
                v = self._combine(self.member(obj, target[2], fr, target), v, op)
            if isinstance(obj, Struct):
                obj.fields[target[2]] = v
                self.note_field(obj.type, target[2], v)
            elif isinstance(obj, Obj):
                obj.a[target[2]] = v

    @staticmethod
    def _combine(old: V, new: V, op: str) -> V:
        if op == "+=":
            # ``for _, s := range parts { out += s }``: the loop variable stands for the whole slice
            return concat(old, *new.items) if isinstance(new, Seq) else concat(old, new)
        if op == "=":
            fb = env_fallback(old, new)
            if fb is not None:
                return fb
        return new

    def note_field(self, type_: str, field: str, v: V) -> None:
        if isinstance(v, S) and not v.has_param():
            self.field_values.setdefault((type_, field), {})[v.sig()] = v
            if self._in_option:
                self.option_values.setdefault((type_, field), {})[v.sig()] = v

    # ------------------------------------------------------------------ expressions
    def eval(self, e: list[Any], fr: Frame) -> V:
        k = e[0]
        if k == "s":
            return lit(e[1])
        if k == "id":
            return self.lookup(e[1], fr)
        if k == "call":
            return self.eval_call(e, fr)
        if k == "sel":
            return self.member(self.eval(e[1], fr), e[2], fr, e)
        if k == "spread":
            v = self.eval(e[1], fr)
            return Spread(v.items) if isinstance(v, Seq) else v
        if k == "bin":
            if e[1] == "+":
                left, right = self.eval(e[2], fr), self.eval(e[3], fr)
                if isinstance(left, (S, Unk)) or isinstance(right, (S, Unk)):
                    return concat(left, right)
            else:
                self.eval(e[2], fr)
                self.eval(e[3], fr)
            return Unk("expr")
        if k == "comp":
            return self.composite(e, fr)
        if k == "fn":
            ref = FuncRef(lit=e[1], file=fr.file, closure=fr)
            fr.pending.append(ref)
            return ref
        if k == "n":
            return lit(e[1]) if e[1][:1].isdigit() else Unk(e[1])
        if k == "rng":
            return self.eval(e[1], fr)
        return Unk(e[1] if len(e) > 1 and isinstance(e[1], str) else "?")

    # ------------------------------------------------------------------ calls
    def eval_call(self, e: list[Any], fr: Frame) -> V:
        fn = e[1]
        line = e[3]
        kind = fn[0]
        if kind == "sel":
            x = self.eval(fn[1], fr)
            args = [self.eval(a, fr) for a in e[2]]
            return self.call_method(x, fn[2], args, fr, e)
        args = [self.eval(a, fr) for a in e[2]]
        if kind == "id":
            name = fn[1]
            if name in _CONVERSIONS:
                return args[0] if args else Unk(name)
            if name == "append" and args and isinstance(args[0], Seq):
                return Seq(args[0].items + [x for a in args[1:] for x in (a.items if isinstance(a, Spread) else [a])])
            if name == "new" and e[2] and e[2][0][0] in ("id", "o"):
                # new(T) is &T{}: the argument is a type (tree-sitter gives it as a type node)
                return self.zero(e[2][0][1], fr.file)
            target = self.lookup(name, fr)
            if isinstance(target, FuncRef):
                return self._mark(self.call_value(target, args, fr, line, e[2]), args)
            if isinstance(target, Seq) and any(isinstance(i, FuncRef) for i in target.items):
                return self.call_value(target, args, fr, line, e[2])
            if isinstance(target, Obj) and target.kind == "ext_func":  # a package function as a value
                return self.call_method(target.a["pkg"], target.a["name"], args, fr, e)
            return actions.pass_through(args, e)
        if kind in ("fn", "call"):
            target = self.eval(fn, fr)
            return self.call_value(target, args, fr, line)
        return Unk("call")

    @staticmethod
    def _mark(result: V, args: list[V]) -> V:
        """A local function that wraps a handler it receives (middleware) keeps that handler."""
        if isinstance(result, FuncRef) and result.lit is not None and result.inner is None:
            inner = next((a for a in reversed(args) if isinstance(a, FuncRef)), None)
            if inner is not None:
                inner.used = True
                return FuncRef(
                    lit=result.lit, file=result.file, closure=result.closure, alias=result.alias, inner=inner
                )
        return result

    def call_method(self, x: V, name: str, args: list[V], fr: Frame, e: list[Any]) -> V:
        line = e[3]
        if isinstance(x, Pkg):
            if x.dir is not None:
                fkey = (x.dir, "", name)
                if fkey in self.prog.funcs:
                    return self._mark(self.run_function(fkey, None, args, fr, line, arg_ir=e[2]), args)
                # not in the walked code: a generated protobuf package of the repository
                # (``*.pb.go`` is never walked) registers servers and builds clients
                return actions.generic_ext(self, fr, x, name, args, e, "")
            lib = LIBS.get(normalize_import(x.path), "")
            spec = EXT_FUNCS.get((lib, name))
            if spec is not None:
                return actions.ACTIONS[spec[0]](self, fr, None, args, e, spec[1])
            return actions.generic_ext(self, fr, x, name, args, e, lib)
        if isinstance(x, Obj):
            table = (
                ROUTER_METHODS.get(x.a.get("lib", ""), {})
                if x.kind == "router"
                else GROUTE_METHODS
                if x.kind == "groute"
                else OBJ_METHODS.get(x.kind, {})
            )
            spec = table.get(name) or table.get("*")
            if spec is not None:
                return actions.ACTIONS[spec[0]](self, fr, x, args, e, spec[1])
            if x.kind == "grpc_client":
                return actions.grpc_invoke(self, fr, x, name, args, e)
            return actions.pass_through(args, e)
        if isinstance(x, Struct):
            mk = self.prog.method_key(x.dir, x.type, name)
            if mk is not None:
                return self._mark(self.run_function(mk, x, args, fr, line, arg_ir=e[2]), args)
            v = x.fields.get(name)
            if isinstance(v, FuncRef):
                return self.call_value(v, args, fr, line)
            impl = self.implementation(x, name, args) if mk is None else None
            if impl is not None:
                return self._mark(self.run_function(impl, None, args, fr, line, arg_ir=e[2]), args)
            inner = self._embedded_with(x, name)
            if inner is not None:
                return self.call_method(inner, name, args, fr, e)
        if isinstance(x, FuncRef) and name in ("ServeHTTP",):
            return Unk(name)
        if isinstance(x, Unk):
            keys = [k for k in self.prog.methods_by_name.get(name, []) if self.prog.funcs[k][0] not in self.foreign]
            if len(keys) == 1 and name[:1].isupper() and self._fits(keys[0], args):
                return self.run_function(keys[0], None, args, fr, line)
        spec = ANY_RECEIVER.get(name)
        if spec is not None and len(args) >= spec[1].get("min_args", 0):
            return actions.ACTIONS[spec[0]](self, fr, x, args, e, spec[1])
        return actions.unknown_receiver(self, fr, x, name, args, e)

    def _embedded_with(self, x: Struct, name: str) -> Struct | None:
        """The value of an embedded field that has method ``name`` (Go promotes it): the client a
        generated ``ClientWithResponses{client}`` embeds through its interface."""
        decl = self.prog.type_decl(x.dir, x.type)
        if decl is None:
            return None
        for fname, ftype, _tag, _line in decl[1]["f"]:
            if fname:
                continue
            inner = x.fields.get(ftype.lstrip("*").rsplit(".", 1)[-1])
            if isinstance(inner, Struct) and inner.type != x.type and inner.known:
                if self.prog.method_key(inner.dir, inner.type, name) is not None:
                    return inner
        return None

    def _fits(self, key: FuncKey, args: list[V]) -> bool:
        """Whether a call with ``args`` can be a call of ``key``: an unknown receiver's ``Get(k)``
        is not the service's own ``Get(ctx, key, dst)`` (an http.Header or a gin context's)."""
        params = self.prog.funcs[key][1]["p"]
        if any(typ.startswith("...") for _n, typ in params):
            return len(args) >= len(params) - 1
        return len(args) == len(params)

    # ------------------------------------------------------------------ wrappers
    def wrapper_lines(self, key: FuncKey) -> frozenset[int]:
        """Lines of HTTP calls in ``key`` whose URL depends on the function's own parameters."""
        got = self._wrappers.get(key)
        if got is not None:
            return got
        self._wrappers[key] = frozenset()
        saved_sink, saved_probe = self.sink, self.probe
        self.sink, self.probe = Sink(self.prog), True
        try:
            found = self.prog.func(key)
            if found is not None:
                path, f = found
                fr = Frame(path, key)
                fr.component = self.component_of(key, path)
                if f["rn"]:
                    fr.vars[f["rn"]] = self.recv_default(key, path)
                self._bind_params(fr, f["p"], [], True)
                self.exec_body(f["b"], fr)
            lines = frozenset(c.line for c in self.sink.calls if c.param_url)
        finally:
            self.sink, self.probe = saved_sink, saved_probe
        self._wrappers[key] = lines
        return lines

    def run_handler(self, ref: V, symbol: str) -> None:
        """Interpret a route handler so the calls it makes are attributed to its API."""
        if self.probe or not isinstance(ref, FuncRef):
            return
        ref.used = True
        target = ref.inner or ref
        sig = (target.sig(), symbol)
        if sig in self._handlers_run:
            return
        self._handlers_run.add(sig)
        if target.lit is not None:
            self.run_lit(target, [], None, 0, handler=symbol)
        elif target.key is not None:
            self.run_function(target.key, target.recv, [], None, 0, handler=symbol)


def _ref_of(fr: Frame | None, name: str) -> tuple[Frame, list[Any]] | None:
    """Where a pointer parameter visible from ``fr`` (its own or a closure's) points."""
    while fr is not None:
        if name in fr.refs:
            return fr.refs[name]
        if name in fr.vars:  # a local of that name shadows any outer pointer parameter
            return None
        fr = fr.parent
    return None


def _zero_of(best: V, v: V) -> bool:
    """Whether ``best`` is the zero value of the struct ``v`` builds (``T{}`` returned with an
    error before ``T{conn, queue}``): a known struct of one type with no field set."""
    return (
        isinstance(best, Struct)
        and isinstance(v, Struct)
        and best.known
        and not best.fields
        and bool(v.fields)
        and (best.type, best.dir) == (v.type, v.dir)
    )
