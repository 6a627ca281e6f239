"""Parse one Python file (stdlib ``ast``) into the JSON summary that link() consumes.

One pass over the tree records what later stages need and nothing is classified here: module
symbols and imports (as qualified refs), functions (params, decorators, docstring, return
value), classes (bases, attributes, column-like fields, inner Meta/Config), and every call that
might matter (callee + folded arguments). Link-time resolution decides what a call is, so a
client created in one module and used in another is still recognised.
"""

from __future__ import annotations

import ast
from typing import Any

from orbitkb.analysis.python import appconfig
from orbitkb.analysis.python.ir import NONE, Node, cat, ref, unk
from orbitkb.analysis.python.signatures import ENTRY_CALLS, SKIP_METHODS, SKIP_MODULES, SKIP_NAMES
from orbitkb.analysis.python.values import Builder

_DEF = (ast.FunctionDef, ast.AsyncFunctionDef)
_FIELD_KWS = {"nullable": "nl", "null": "null", "primary_key": "pk"}


def module_name(path: str) -> tuple[str, bool]:
    """Dotted module name of a repository path, and whether it is a package ``__init__``."""
    stem = path.rsplit(".", 1)[0] if path.endswith((".py", ".pyi")) else path
    parts = [p for p in stem.split("/") if p not in ("", ".")]
    if parts and parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


class _Frame:
    __slots__ = ("qual", "cls", "selfname", "params", "locals", "ret")

    def __init__(self, qual: str, cls: str | None, selfname: str | None, params: dict[str, Node]):
        self.qual, self.cls, self.selfname, self.params = qual, cls, selfname, params
        self.locals: dict[str, Node] = {}
        self.ret: Node | None = None


class Scanner:
    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.module, self.is_pkg = module_name(path)
        self.package = self.module if self.is_pkg else self.module.rpartition(".")[0]
        self.imports: dict[str, str] = {}
        self.bound: set[str] = set()
        self.overlay: dict[str, Node] = {}
        self.star: list[str] = []
        self.libs: set[str] = set()
        self.sym: dict[str, Node] = {}
        self.lines: dict[str, int] = {}  # line of each module symbol's assignment
        self.funcs: dict[str, dict[str, Any]] = {}
        self.classes: dict[str, dict[str, Any]] = {}
        self.inv: list[dict[str, Any]] = []
        self.cfg: list[list[Any]] = []  # [key, value] written to an app's config (appconfig.py)
        self.state: list[list[Any]] = []  # [name, value] written to an app's state (appconfig.py)
        self.frames: list[_Frame] = []
        self.entry = False
        self.b = Builder(self.name, path)

    # ------------------------------------------------------------------ names
    def name(self, ident: str) -> Node:
        for fr in reversed(self.frames):
            if ident in fr.locals:
                return fr.locals[ident]
            if ident == fr.selfname and fr.cls:
                return ref(f"{self.module}.{fr.cls}")
            if ident in fr.params:
                return fr.params[ident]
        if ident in self.overlay:
            return self.overlay[ident]
        if ident in self.imports:
            return ref(self.imports[ident])
        if ident in self.bound or not self.module:
            return ref(f"{self.module}.{ident}" if self.module else ident)
        if ident in SKIP_NAMES or ident in ("str", "dict", "list", "int"):
            return ref("builtins." + ident)
        return ref(f"{self.module}.{ident}")

    def _absolute(self, module: str | None, level: int) -> str:
        if not level:
            return module or ""
        base = self.package.split(".") if self.package else []
        if level > 1:
            base = base[: max(0, len(base) - (level - 1))]
        return ".".join([*base, *([module] if module else [])])

    def _import(self, s: ast.Import | ast.ImportFrom, into: dict[str, Node] | None) -> None:
        if isinstance(s, ast.Import):
            for a in s.names:
                local = a.asname or a.name.split(".")[0]
                q = a.name if a.asname else local
                self._bind_import(local, q, into)
                self.libs.add(a.name.split(".")[0])
            return
        mod = self._absolute(s.module, s.level)
        if not s.level and s.module:
            self.libs.add(s.module.split(".")[0])
        for a in s.names:
            if a.name == "*":
                self.star.append(mod)
                continue
            self._bind_import(a.asname or a.name, f"{mod}.{a.name}" if mod else a.name, into)

    def _bind_import(self, local: str, q: str, into: dict[str, Node] | None) -> None:
        if into is None:
            self.imports[local] = q
            self.sym[local] = ref(q)
        else:
            into[local] = ref(q)

    # ------------------------------------------------------------------ module
    def run(self, tree: ast.Module) -> dict[str, Any]:
        self._prescan(tree.body)
        self._module(tree.body)
        out: dict[str, Any] = {
            "module": self.module,
            "pkg": self.is_pkg,
            "doc": ast.get_docstring(tree),
            "nl": self.text.count("\n") + 1,
            "libs": sorted(self.libs),
            "sym": self.sym,
            "sln": self.lines,
            "funcs": self.funcs,
            "classes": self.classes,
            "inv": self.inv,
        }
        if self.cfg:
            out["cfg"] = self.cfg
        if self.state:
            out["st"] = self.state
        if self.star:
            out["star"] = self.star
        if self.entry:
            out["entrypoint"] = True
        return out

    def _prescan(self, body: list[ast.stmt]) -> None:
        for s in body:
            if isinstance(s, (ast.Import, ast.ImportFrom)):
                self._import(s, None)
            elif isinstance(s, (*_DEF, ast.ClassDef)):
                self.bound.add(s.name)
            elif isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for t in s.targets if isinstance(s, ast.Assign) else [s.target]:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Name):
                            self.bound.add(n.id)
            elif isinstance(s, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for blk in _blocks(s):
                    self._prescan(blk)

    def _module(self, body: list[ast.stmt]) -> None:
        for s in body:
            t = type(s)
            if t is ast.Assign or t is ast.AnnAssign:
                targets = s.targets if t is ast.Assign else [s.target]  # type: ignore[attr-defined]
                if s.value is not None:  # type: ignore[attr-defined]
                    self._assign_module(targets, s.value)  # type: ignore[attr-defined]
                    self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.AugAssign and isinstance(s.target, ast.Name):  # type: ignore[attr-defined]
                name = s.target.id  # type: ignore[attr-defined]
                self.sym[name] = cat([self.sym.get(name, unk(name)), self.b.build(s.value)])  # type: ignore[attr-defined]
                self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.Expr:
                self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
                self.function(s, s.name, None)  # type: ignore[arg-type,attr-defined]
            elif t is ast.ClassDef:
                self.klass(s, s.name)  # type: ignore[arg-type,attr-defined]
            elif t is ast.If:
                if _is_main_guard(s.test):  # type: ignore[attr-defined]
                    self.entry = True
                self.calls_in(s.test)  # type: ignore[attr-defined]
                self._module(s.body)  # type: ignore[attr-defined]
                self._module(s.orelse)  # type: ignore[attr-defined]
            elif t is ast.With or t is ast.AsyncWith:
                for item in s.items:  # type: ignore[attr-defined]
                    self.calls_in(item.context_expr)
                    if isinstance(item.optional_vars, ast.Name):
                        self.overlay[item.optional_vars.id] = self.b.build(
                            item.context_expr, f"{self.module}.{item.optional_vars.id}"
                        )
                self._module(s.body)  # type: ignore[attr-defined]
            elif t is ast.For or t is ast.AsyncFor:
                self.calls_in(s.iter)  # type: ignore[attr-defined]
                names = self._bind_loop(s.target, s.iter, self.overlay)  # type: ignore[attr-defined]
                self._module(s.body)  # type: ignore[attr-defined]
                for n in names:
                    self.overlay.pop(n, None)
            elif t in (ast.Try, ast.While) or t.__name__ == "TryStar":
                for blk in _blocks(s):
                    self._module(blk)

    def _assign_module(self, targets: list[ast.expr], value: ast.expr) -> None:
        for tgt in targets:
            self._config_write(tgt, value)
            if isinstance(tgt, ast.Name):
                self.sym[tgt.id] = self.b.build(value, f"{self.module}.{tgt.id}")
                self.lines[tgt.id] = tgt.lineno
            elif isinstance(tgt, ast.Attribute) and _dotted(tgt):
                # ``app.conf.beat_schedule = {...}``, ``view.cache_key = "k"``: kept under the dotted name
                self.sym[_dotted(tgt)] = self.b.build(value)
                self.lines[_dotted(tgt)] = tgt.lineno
            elif isinstance(tgt, (ast.Tuple, ast.List)):
                vals = value.elts if isinstance(value, (ast.Tuple, ast.List)) else []
                for i, el in enumerate(tgt.elts):
                    if isinstance(el, ast.Name):
                        v = vals[i] if i < len(vals) and len(vals) == len(tgt.elts) else None
                        self.sym[el.id] = self.b.build(v, f"{self.module}.{el.id}") if v else unk(el.id)

    def _bind_loop(self, target: ast.expr, it: ast.expr, into: dict[str, Node]) -> list[str]:
        if (
            isinstance(it, ast.Call)
            and isinstance(it.func, ast.Attribute)
            and it.func.attr in ("items", "values")
            and not it.args
        ):  # ``for name, conf in TABLE.items()``: the value is any of the table's values
            pair = isinstance(target, ast.Tuple) and len(target.elts) == 2
            value = target.elts[1] if pair and isinstance(target, ast.Tuple) else target
            if isinstance(value, ast.Name) and (pair or it.func.attr == "values"):
                into[value.id] = {"t": "vals", "o": self.b.build(it.func.value)}
                return [value.id]
            return []
        if not isinstance(target, ast.Name):
            return []
        if isinstance(it, (ast.List, ast.Tuple, ast.Set)):
            into[target.id] = {"t": "any", "v": [self.b.build(x) for x in it.elts[:64]]}
        else:
            src = self.b.build(it)
            into[target.id] = {"t": "any", "v": [src]} if src["t"] in ("ref", "list") else unk(target.id)
        return [target.id]

    # ------------------------------------------------------------------ functions
    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, qual: str, cls: str | None) -> None:
        decs = [self.b.build(d) for d in node.decorator_list]
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
        names, pnodes = self._params(node.args, init=bool(cls) and node.name == "__init__")
        selfname = names[0] if cls and names and not static else None
        rec: dict[str, Any] = {
            "l": start,
            "e": node.end_lineno or node.lineno,
            "doc": ast.get_docstring(node),
            "p": names,
            # only parameters carrying a default, an annotation or __init__-ness are worth caching
            "pn": {n: p for n, p in pnodes.items() if len(p) > 2},
            "dec": decs,
            "dln": [d.lineno for d in node.decorator_list],
        }
        if cls:
            rec["c"] = cls
        if node.returns is not None:
            rt, _ = self._ann_type(node.returns)
            if rt:
                rec["rt"] = rt
                if _is_list(node.returns):
                    rec["rl"] = 1
        self.funcs[qual] = rec
        if self.frames:  # a nested def is reachable from its parent as parent.<name>
            self.frames[-1].locals[node.name] = ref(f"{self.module}.{qual}")
        frame = _Frame(qual, cls, selfname, {n: p for n, p in pnodes.items() if n != selfname})
        self.frames.append(frame)
        try:
            self.block(node.body)
        finally:
            self.frames.pop()
        if frame.ret is not None:
            rec["ret"] = frame.ret

    def _params(self, a: ast.arguments, init: bool) -> tuple[list[str], dict[str, Node]]:
        pos = [*a.posonlyargs, *a.args]
        defaults: dict[str, ast.expr] = {}
        for arg, d in zip(pos[len(pos) - len(a.defaults) :], a.defaults):
            defaults[arg.arg] = d
        for arg, kd in zip(a.kwonlyargs, a.kw_defaults):
            if kd is not None:
                defaults[arg.arg] = kd
        names, nodes = [], {}
        for arg in [*pos, *a.kwonlyargs]:
            p: Node = {"t": "param", "n": arg.arg}
            if arg.arg in defaults:
                p["d"] = self.b.build(defaults[arg.arg])
            ann = arg.annotation
            if ann is not None:
                ty, dep = self._ann_type(ann)
                if ty:
                    p["ty"] = ty
                    if _is_list(ann):
                        p["tl"] = 1
                if dep is not None and "d" not in p:
                    p["d"] = dep
            if init:
                p["i"] = 1
            names.append(arg.arg)
            nodes[arg.arg] = p
        return names, nodes

    def _ann_type(self, ann: ast.expr) -> tuple[str | None, Node | None]:
        """The annotated class (through Optional/Annotated/``X | None``) and an Annotated Depends()."""
        dep = None
        if isinstance(ann, ast.BinOp):
            ann = ann.left
        if isinstance(ann, ast.Subscript):
            inner = ann.slice
            elts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            if elts and len(elts) > 1 and isinstance(elts[1], ast.Call):
                dep = self.b.build(elts[1])
            ann = elts[0] if elts else ann
        if isinstance(ann, (ast.Name, ast.Attribute)):
            n = self.b.build(ann)
            return (n["q"] if n["t"] == "ref" else None), dep
        return None, dep

    def block(self, body: list[ast.stmt]) -> None:
        fr = self.frames[-1]
        for s in body:
            t = type(s)
            if t is ast.Assign or t is ast.AnnAssign:
                targets = s.targets if t is ast.Assign else [s.target]  # type: ignore[attr-defined]
                if s.value is not None:  # type: ignore[attr-defined]
                    for tgt in targets:
                        self._assign_local(fr, tgt, s.value)  # type: ignore[attr-defined]
                    self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.AugAssign:
                if isinstance(s.target, ast.Name):  # type: ignore[attr-defined]
                    old = self.name(s.target.id)  # type: ignore[attr-defined]
                    fr.locals[s.target.id] = cat([old, self.b.build(s.value)])  # type: ignore[attr-defined]
                self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.Return:
                if s.value is not None:  # type: ignore[attr-defined]
                    if fr.ret is None:
                        fr.ret = self.b.build(s.value)  # type: ignore[attr-defined]
                    self.calls_in(s.value)  # type: ignore[attr-defined]
            elif t is ast.Expr or t is ast.Raise or t is ast.Assert:
                for child in ast.iter_child_nodes(s):
                    self.calls_in(child)
            elif t is ast.If or t is ast.While:
                self.calls_in(s.test)  # type: ignore[attr-defined]
                self.block(s.body)  # type: ignore[attr-defined]
                self.block(s.orelse)  # type: ignore[attr-defined]
            elif t is ast.For or t is ast.AsyncFor:
                self.calls_in(s.iter)  # type: ignore[attr-defined]
                if t is ast.AsyncFor:
                    self._iteration(s.iter)  # type: ignore[attr-defined]
                self._bind_loop(s.target, s.iter, fr.locals)  # type: ignore[attr-defined]
                self.block(s.body)  # type: ignore[attr-defined]
                self.block(s.orelse)  # type: ignore[attr-defined]
            elif t is ast.With or t is ast.AsyncWith:
                for item in s.items:  # type: ignore[attr-defined]
                    self.calls_in(item.context_expr)
                    if isinstance(item.optional_vars, ast.Name):
                        ident = f"{self.module}.{fr.qual}:{item.optional_vars.id}"
                        fr.locals[item.optional_vars.id] = self.b.build(item.context_expr, ident)
                self.block(s.body)  # type: ignore[attr-defined]
            elif t is ast.FunctionDef or t is ast.AsyncFunctionDef:
                self.function(s, f"{fr.qual}.{s.name}", None)  # type: ignore[arg-type,attr-defined]
            elif t is ast.Import or t is ast.ImportFrom:
                self._import(s, fr.locals)  # type: ignore[arg-type]
            elif t is ast.Match:
                self.calls_in(s.subject)  # type: ignore[attr-defined]
                for case in s.cases:  # type: ignore[attr-defined]
                    self.block(case.body)
            elif t is ast.Try or t.__name__ == "TryStar":
                for blk in _blocks(s):
                    self.block(blk)

    def _assign_local(self, fr: _Frame, tgt: ast.expr, value: ast.expr) -> None:
        self._config_write(tgt, value)
        if isinstance(tgt, ast.Name):
            fr.locals[tgt.id] = self.b.build(value, f"{self.module}.{fr.qual}:{tgt.id}")
        elif (
            isinstance(tgt, ast.Attribute)
            and isinstance(tgt.value, ast.Name)
            and tgt.value.id == fr.selfname
            and fr.cls in self.classes
        ):
            attrs = self.classes[fr.cls]["attrs"]
            old = attrs.get(tgt.attr)
            if old is None or old["t"] == "none" or fr.qual.endswith(".__init__"):
                # ``self._conn = None`` in __init__ and the real connection in connect(): keep the real one
                new = self.b.build(value, f"{self.module}.{fr.cls}.{tgt.attr}")
                if old is None or new["t"] != "none":
                    attrs[tgt.attr] = new
        elif isinstance(tgt, (ast.Tuple, ast.List)):
            for el in tgt.elts:
                if isinstance(el, ast.Name):
                    fr.locals[el.id] = unk(el.id)

    def _config_write(self, tgt: ast.expr, value: ast.expr) -> None:
        """``app.config["ORDERS_ADDR"] = os.environ[...]``: one entry of the app's config table;
        ``app.state.orders = httpx.AsyncClient(...)``: one entry of its state."""
        name = appconfig.state_name(tgt)
        if name is not None:
            self.state.append([name, self.b.build(value)])
        if isinstance(tgt, ast.Subscript) and appconfig.is_config(tgt.value):
            key = tgt.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                self.cfg.append([key.value, self.b.build(value)])

    # ------------------------------------------------------------------ calls
    def calls_in(self, e: ast.AST | None) -> None:
        """Record every call inside an expression (leaves are skipped without the generic walk)."""
        if e is None:
            return
        stack = [e]
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            n = pop()
            t = type(n)
            if t is ast.Name or t is ast.Constant:
                continue
            if t is ast.Call:
                self._invocation(n)  # type: ignore[arg-type]
                push(n.func)  # type: ignore[attr-defined]
                extend(n.args)  # type: ignore[attr-defined]
                extend(k.value for k in n.keywords)  # type: ignore[attr-defined]
            elif t is ast.Attribute:
                push(n.value)  # type: ignore[attr-defined]
            else:
                extend(ast.iter_child_nodes(n))

    def _iteration(self, it: ast.expr) -> None:
        """``async for msg in queue``: iterating an object is a call of its ``__aiter__`` (an
        aio-pika queue read this way is consumed); a call being iterated is recorded as itself."""
        if isinstance(it, (ast.Name, ast.Attribute)):
            self._invocation(ast.Call(func=ast.Attribute(value=it, attr="__aiter__"), args=[], keywords=[], lineno=it.lineno))

    def _invocation(self, n: ast.Call) -> None:
        f = n.func
        if type(f) is ast.Name:
            if f.id in SKIP_NAMES:
                return
        elif type(f) is ast.Attribute:
            if isinstance(f.value, ast.Constant):
                return
            # ``list.index(x)`` / ``re.search`` say nothing; ``es.index(index="products")`` names an index
            if f.attr in SKIP_METHODS and not any(k.arg == "index" for k in n.keywords):
                return
        else:
            return
        if type(f) is ast.Attribute and f.attr in appconfig.WRITERS and appconfig.is_config(f.value):
            self.cfg.extend(appconfig.entries(f.attr, n, self.b.build))
        callee = self.b.build(f)
        if callee["t"] == "ref":
            q = callee["q"]
            if q in ENTRY_CALLS:
                self.entry = True
            if q.split(".", 1)[0] in SKIP_MODULES:
                return
        # empty fields are left out: this record is cached as JSON for every call in the code
        rec: dict[str, Any] = {"c": callee, "l": n.lineno}
        if n.args:
            rec["a"] = [self.b.build(a) for a in n.args[:8]]
        if n.keywords:
            rec["k"] = {k.arg: self.b.build(k.value) for k in n.keywords if k.arg}
        if n.end_lineno and n.end_lineno != n.lineno:
            rec["e"] = n.end_lineno
        if self.frames:
            rec["f"] = self.frames[-1].qual
        self.inv.append(rec)

    # ------------------------------------------------------------------ classes
    def klass(self, node: ast.ClassDef, qual: str) -> None:
        rec: dict[str, Any] = {
            "n": qual,
            "l": min([d.lineno for d in node.decorator_list] + [node.lineno]),
            "dl": node.lineno,
            "e": node.end_lineno or node.lineno,
            "doc": ast.get_docstring(node),
            "b": [self.b.build(b) for b in node.bases],
            "kw": {k.arg: self.b.build(k.value) for k in node.keywords if k.arg},
            "dec": [self.b.build(d) for d in node.decorator_list],
            "dln": [d.lineno for d in node.decorator_list],
            "attrs": {},
            "ann": {},
            "fields": [],
            "inner": {},
        }
        self.classes[qual] = rec
        own = f"{self.module}.{qual}."
        # a name the class body assigned earlier is that class attribute (``_session = CLUSTER.connect()``)
        body = Builder(lambda n: ref(own + n) if n in rec["attrs"] else self.b.name(n), self.b.path)
        for s in _class_statements(node.body):
            if isinstance(s, ast.Assign):
                for tgt in s.targets:
                    if isinstance(tgt, ast.Name):
                        rec["attrs"][tgt.id] = body.build(s.value, own + tgt.id)
                        self._field(rec, tgt.id, None, s.value)
                self.calls_in(s.value)
            elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name):
                rec["ann"][s.target.id] = _unparse(s.annotation)
                if not _has_default(s.value):
                    rec.setdefault("nd", []).append(s.target.id)
                if s.value is not None:
                    rec["attrs"][s.target.id] = body.build(s.value, own + s.target.id)
                self._field(rec, s.target.id, s.annotation, s.value)
            elif isinstance(s, _DEF):
                self.function(s, f"{qual}.{s.name}", qual)
            elif isinstance(s, ast.ClassDef):
                inner: dict[str, Node] = {}
                for x in s.body:
                    if isinstance(x, ast.Assign):
                        for tgt in x.targets:
                            if isinstance(tgt, ast.Name):
                                inner[tgt.id] = self.b.build(x.value)
                rec["inner"][s.name] = inner
                self.klass(s, f"{qual}.{s.name}")

    def _field(self, rec: dict[str, Any], name: str, ann: ast.expr | None, value: ast.expr | None) -> None:
        if name.startswith("__") or name in ("model_config", "objects", "Meta"):
            return
        f: dict[str, Any] = {"n": name}
        if ann is not None:
            f["ann"] = rec["ann"][name]
        if isinstance(value, ast.Call):
            callee = self.b.build(value.func)
            f["c"] = _last(value.func)
            if callee["t"] == "ref":
                f["cq"] = callee["q"]
            for a in value.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    f.setdefault("col", a.value)
                elif "ty" not in f and isinstance(a, (ast.Name, ast.Attribute, ast.Call)):
                    f["ty"] = _last(a.func if isinstance(a, ast.Call) else a)
            for k in value.keywords:
                if k.arg in _FIELD_KWS and isinstance(k.value, ast.Constant):
                    f[_FIELD_KWS[k.arg]] = bool(k.value.value)
                elif k.arg in ("default", "db_column", "name") and isinstance(k.value, ast.Constant):
                    if k.arg == "default" and k.value.value is None:
                        f["dn"] = True
                    elif k.arg in ("db_column", "name") and isinstance(k.value.value, str):
                        f["col"] = k.value.value
        elif ann is None:
            return
        elif isinstance(value, ast.Constant) and value.value is None:
            f["dn"] = True
        rec["fields"].append(f)


def _blocks(s: ast.stmt) -> list[list[ast.stmt]]:
    out = []
    for attr in ("body", "orelse", "finalbody"):
        blk = getattr(s, attr, None)
        if blk:
            out.append(blk)
    for h in getattr(s, "handlers", ()) or ():
        out.append(h.body)
    return out


_LISTS = frozenset({"list", "List", "Sequence", "Iterable", "set", "Set", "tuple", "Tuple", "frozenset"})
_WRAPPERS = frozenset({"Optional", "Annotated"})
_FIELD_CALLS = frozenset({"Field", "field", "ib", "attrib"})


def _is_list(ann: ast.expr) -> bool:
    """``list[X]`` (through ``Optional``/``Annotated``/``| None``): the model is a list item."""
    for _ in range(4):
        if isinstance(ann, ast.BinOp):
            ann = ann.left
        elif isinstance(ann, ast.Subscript) and _last(ann.value) in _WRAPPERS:
            sl = ann.slice
            ann = sl.elts[0] if isinstance(sl, ast.Tuple) and sl.elts else sl
        else:
            break
    return isinstance(ann, ast.Subscript) and _last(ann.value) in _LISTS


def _has_default(value: ast.expr | None) -> bool:
    """Whether a class-body annotation carries a default (``Field(...)`` / ``Field()`` do not)."""
    if value is None:
        return False
    if isinstance(value, ast.Call) and _last(value.func) in _FIELD_CALLS:
        if any(k.arg in ("default", "default_factory", "factory") for k in value.keywords):
            return True
        first = value.args[0] if value.args else None
        return first is not None and not (isinstance(first, ast.Constant) and first.value is Ellipsis)
    return True


def _is_main_guard(test: ast.expr) -> bool:
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in test.comparators)
    )


def _dotted(e: ast.AST) -> str:
    """``a.b.c`` for a chain of attributes on a name, else ""."""
    parts: list[str] = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    return ".".join([e.id, *reversed(parts)]) if isinstance(e, ast.Name) and parts else ""


def _last(e: ast.AST) -> str:
    if isinstance(e, ast.Attribute):
        return e.attr
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Subscript):
        return _last(e.value)
    return ""


def _unparse(e: ast.AST) -> str:
    try:
        return ast.unparse(e)[:160]
    except Exception:  # noqa: BLE001 - unparse of odd trees must not break parsing
        return ""


__all__ = ["NONE", "Scanner", "module_name"]


def _class_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """A class body's statements with those inside ``if``/``try``/``while``/``for``/``with`` blocks
    lifted out (a connection retried in a ``while True: try:`` loop still sets the attribute);
    control flow is ignored as everywhere else."""
    out: list[ast.stmt] = []
    for s in body:
        if isinstance(s, (ast.If, ast.While, ast.For, ast.AsyncFor)):
            out.extend(_class_statements(s.body + s.orelse))
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            out.extend(_class_statements(s.body))
        elif isinstance(s, (ast.Try, ast.TryStar)):
            handlers = [st for h in s.handlers for st in h.body]
            out.extend(_class_statements(s.body + handlers + s.orelse + s.finalbody))
        else:
            out.append(s)
    return out
