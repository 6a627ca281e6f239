"""Link-time evaluation of ir nodes across the modules of one service.

``Resolver.ev`` folds a node into a normal form: literals and env reads (concatenated), local
classes/functions/modules, external names, instances of classes (``inst``, with their
constructor arguments and a stable ``id`` for objects bound to a name) and method references.
Module symbols are evaluated once and cached; cycles and depth are bounded so hostile code
cannot hang the linker.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from orbitkb.analysis.python import appconfig
from orbitkb.analysis.python.ir import Node, cat, describe, lit, literal, unk
from orbitkb.analysis.python.signatures import (
    ATTR_RESULTS,
    AWS_SERVICES,
    BOTO_CLIENTS,
    DEPENDS,
    ENV_FUNCS,
    ENV_OBJECT_METHODS,
    ENV_OBJECTS,
    FAMILIES,
    METHOD_RESULTS,
    MONGO_NON_NAMES,
    RESPONSE_NAMES,
    SETTINGS_BASES,
)
from orbitkb.analysis.python.values import fold_format

MISSING: Node = {"t": "missing"}
_MAX_DEPTH = 30
_SETTINGS_NAME = re.compile(r"(Settings|Config|Configuration)$")
_PLAIN = frozenset({"lit", "none", "unk", "ext", "mod", "cls", "fn"})
_PROPERTIES = frozenset({"property", "cached_property"})
_MAX_TABLE = 32  # entries of a table whose every value a runtime lookup may return
_DJANGO_SETTINGS = "django.conf.settings."


def ext(q: str) -> Node:
    return {"t": "ext", "q": q}


def synthetic(family: str, name: Node | None = None) -> Node:
    node: Node = {"t": "inst", "c": ext("@" + family), "a": [], "k": {}}
    if name is not None:
        node["name"] = name
    return node


class Resolver:
    def __init__(self, files: Mapping[str, dict[str, Any]]):
        self.files = files
        self.by_module: dict[str, str] = {}
        self.by_suffix: dict[str, list[str]] = defaultdict(list)
        for path in sorted(files):
            mod = files[path].get("module") or ""
            self.by_module.setdefault(mod, path)
            parts = mod.split(".")
            for i in range(1, len(parts)):
                self.by_suffix[".".join(parts[i:])].append(mod)
        self.libs: set[str] = set()
        for data in files.values():
            self.libs.update(data.get("libs", ()))
        self._lookups: dict[str, Node] = {}
        self._symbols: dict[str, Node] = {}
        self._active: set[str] = set()
        self._ancestors: dict[str, tuple[list[Node], set[str]]] = {}
        self._config, self._config_objects = appconfig.table(files)
        self._state = appconfig.state_table(files)

    # ------------------------------------------------------------------ modules and names
    def find_module(self, dotted: str) -> str | None:
        path = self.by_module.get(dotted)
        if path is not None:
            return path
        cands = self.by_suffix.get(dotted)
        if not cands:
            return None
        return self.by_module[min(cands, key=lambda m: (len(m), m))]

    def lookup(self, q: str) -> Node:
        hit = self._lookups.get(q)
        if hit is not None:
            return hit
        if q in self._active:
            return ext(q)
        self._active.add(q)
        try:
            res = self._lookup(q)
        finally:
            self._active.discard(q)
        self._lookups[q] = res
        return res

    def _lookup(self, q: str) -> Node:
        parts = q.split(".")
        for i in range(len(parts), 0, -1):
            path = self.find_module(".".join(parts[:i]))
            if path is None:
                continue
            v: Node = {"t": "mod", "p": path}
            for a in parts[i:]:
                v = self.getattr(v, a)
                if v is MISSING:
                    return ext(q)
            return v
        if q.startswith(_DJANGO_SETTINGS):
            v = self.getattr(ext(_DJANGO_SETTINGS[:-1]), parts[3])
            for a in parts[4:]:
                v = self.getattr(v, a)
            return v
        return ext(q)

    def symbol(self, path: str, name: str) -> Node:
        key = path + "#" + name
        hit = self._symbols.get(key)
        if hit is not None:
            return hit
        if key in self._active:
            return unk(name)
        self._active.add(key)
        try:
            res = self.ev(self.files[path]["sym"][name])
        finally:
            self._active.discard(key)
        self._symbols[key] = res
        return res

    # ------------------------------------------------------------------ attributes
    def getattr(self, v: Node, a: str) -> Node:
        t = v["t"]
        if a in self._state and appconfig.is_state_node(v) and "state:" + a not in self._active:
            self._active.add("state:" + a)  # ``app.state.pool = app.state.pool or make()``: once
            try:
                return self.ev(self._state[a])
            finally:
                self._active.discard("state:" + a)
        if t == "mod":
            return self._module_attr(v["p"], a)
        if t == "cls":
            r = self.class_attr(v, a, None)
            return {"t": "bm", "o": v, "n": a} if r is MISSING else r
        if t == "inst":
            return self._inst_attr(v, a)
        if t == "ext":
            if v["q"] == "django.conf.settings":
                found = self._django_setting(a)
                if found is not None:
                    return found
            return ext(v["q"] + "." + a)
        if t == "fn":
            qual = v["n"] + "." + a
            if qual in self.files[v["p"]]["funcs"]:
                return {"t": "fn", "p": v["p"], "n": qual}
            if qual in self.files[v["p"]]["sym"]:  # a function attribute set at module level
                return self.symbol(v["p"], qual)
        if t == "any":
            return {"t": "any", "v": [self.getattr(x, a) for x in v["v"]]}
        if t == "param":
            obj = self.as_object(v)
            if obj is not v:
                return self.getattr(obj, a)
        return {"t": "bm", "o": v, "n": a}

    def _django_setting(self, name: str) -> Node | None:
        """``django.conf.settings.NAME``: NAME as the project's settings module sets it (the module
        that declares INSTALLED_APPS or ROOT_URLCONF, else a ``settings.py`` / ``settings/`` one)."""
        def rank(path: str) -> tuple[int, int, str]:
            sym = self.files[path]["sym"]
            declares = "INSTALLED_APPS" in sym or "ROOT_URLCONF" in sym
            named = path.rsplit("/", 1)[-1] == "settings.py" or "/settings/" in "/" + path
            return (0 if declares else 1 if named else 2, path.count("/"), path)

        for path in sorted(self.files, key=rank):
            if rank(path)[0] < 2 and name in self.files[path]["sym"]:
                return self.symbol(path, name)
        return None

    def _module_attr(self, path: str, a: str) -> Node:
        data = self.files[path]
        if a in data["sym"]:
            return self.symbol(path, a)
        if a in data["classes"]:
            return {"t": "cls", "p": path, "n": a}
        if a in data["funcs"]:
            return {"t": "fn", "p": path, "n": a}
        sub = self.by_module.get(f"{data['module']}.{a}" if data["module"] else a)
        if sub is not None:
            return {"t": "mod", "p": sub}
        for star in data.get("star", ()):
            r = self.lookup(f"{star}.{a}")
            if r["t"] != "ext":
                return r
        return MISSING

    def _inst_attr(self, v: Node, a: str) -> Node:
        c = v["c"]
        if c["t"] == "cls":
            r = self.class_attr(c, a, v)
            if r is not MISSING:
                return r
        fam = self.family(v)
        if fam and (fam, a) in ATTR_RESULTS:
            res_fam, name = ATTR_RESULTS[(fam, a)]
            return synthetic(res_fam, {"t": "lit", "v": name})
        if fam in ("mongo-client", "mongo-db") and a not in MONGO_NON_NAMES and not a.startswith("_"):
            return synthetic("mongo-db" if fam == "mongo-client" else "mongo-coll", {"t": "lit", "v": a})
        return {"t": "bm", "o": v, "n": a}

    def class_info(self, c: Node) -> dict[str, Any]:
        info: dict[str, Any] = self.files[c["p"]]["classes"][c["n"]]
        return info

    def class_attr(self, c: Node, a: str, inst: Node | None, depth: int = 0) -> Node:
        if depth > 8:
            return MISSING
        path, name = c["p"], c["n"]
        info = self.files[path]["classes"].get(name)
        if info is None:
            return MISSING
        if a in info["attrs"] or a in info["ann"]:
            node = info["attrs"].get(a)
            env = self.settings_field(c, info, a, node)
            if env is not None:
                return env
            if node is None:
                return unk(f"{name}.{a}")
            r = self.ev(node)
            return self.bind_self(r, c, inst) if inst is not None else r
        qual = f"{name}.{a}"
        funcs = self.files[path]["funcs"]
        if qual in funcs:
            fn: Node = {"t": "fn", "p": path, "n": qual}
            if inst is not None:
                fn["self"] = inst
            if "ret" in funcs[qual] and any(
                describe(d).rsplit(".", 1)[-1] in _PROPERTIES for d in funcs[qual].get("dec", ())
            ):
                return self.apply(fn, [], {}, None, depth)  # ``@property``: read as its value
            return fn
        if qual in self.files[path]["classes"]:
            return {"t": "cls", "p": path, "n": qual}
        for base in self.local_bases(c):
            r = self.class_attr(base, a, inst, depth + 1)
            if r is not MISSING:
                return r
        return MISSING

    def local_bases(self, c: Node) -> list[Node]:
        return [b for b in (self.ev(x) for x in self.class_info(c)["b"]) if b["t"] == "cls"]

    def ancestors(self, c: Node) -> tuple[list[Node], set[str]]:
        """Local ancestor classes (nearest first, ``c`` included) and external base names."""
        key = c["p"] + "#" + c["n"]
        hit = self._ancestors.get(key)
        if hit is not None:
            return hit
        self._ancestors[key] = ([c], set())  # cycle guard
        local: list[Node] = []
        external: set[str] = set()
        todo: list[Node] = [c]
        seen: set[str] = set()
        while todo and len(seen) < 64:
            cur = todo.pop(0)
            k = cur["p"] + "#" + cur["n"]
            if k in seen:
                continue
            seen.add(k)
            local.append(cur)
            for b in self.class_info(cur)["b"]:
                bv = self.ev(b)
                if bv["t"] == "cls":
                    todo.append(bv)
                elif bv["t"] == "ext":
                    external.add(bv["q"])
                elif bv["t"] == "bm":
                    external.add(describe(bv))
        res = (local, external)
        self._ancestors[key] = res
        return res

    # ------------------------------------------------------------------ settings objects
    def is_settings(self, c: Node) -> bool:
        local, external = self.ancestors(c)
        if external & SETTINGS_BASES:
            return True
        for cls in local:
            info = self.class_info(cls)
            if _SETTINGS_NAME.search(cls["n"]) and any(
                describe(d).endswith("dataclass") for d in info["dec"]
            ):
                return True
        return False

    def settings_field(self, c: Node, info: dict[str, Any], a: str, node: Node | None) -> Node | None:
        if a not in info["ann"] or a.startswith("_") or not self.is_settings(c):
            return None
        default, explicit = node, None
        if (
            node is not None
            and node["t"] == "call"
            and describe(node["f"]).split(".")[-1] in ("Field", "field")
        ):
            for key in ("validation_alias", "alias", "env"):
                if explicit is None and key in node["k"]:
                    explicit = literal(self.ev(node["k"][key]))
            default = node["a"][0] if node["a"] else node["k"].get("default")
        dv = self.ev(default) if default is not None else None
        if dv is not None and dv["t"] == "env":
            return dv
        if dv is not None and dv["t"] == "inst":
            return dv  # a nested settings object
        name = explicit or (self.env_prefix(c) + a).upper()
        return {"t": "env", "n": name, "d": dv}

    def env_prefix(self, c: Node) -> str:
        for cls in self.ancestors(c)[0]:
            info = self.class_info(cls)
            cfg = info["inner"].get("Config", {})
            if "env_prefix" in cfg:
                return literal(self.ev(cfg["env_prefix"])) or ""
            mc = info["attrs"].get("model_config")
            if mc is not None:
                v = self.ev(mc)
                src = v.get("k", {}) if v["t"] == "inst" else v.get("v", {}) if v["t"] == "dict" else {}
                if "env_prefix" in src:
                    return literal(src["env_prefix"]) or ""
        return ""

    # ------------------------------------------------------------------ evaluation
    def ev(self, node: Node | None, bind: dict[str, Any] | None = None, depth: int = 0) -> Node:
        if node is None:
            return {"t": "none"}
        t = node["t"]
        if t in _PLAIN:
            return node
        if depth > _MAX_DEPTH:
            return unk(describe(node))
        d = depth + 1
        if t == "ref":
            r = self.lookup(node["q"])
            return self.ev(r, bind, d) if bind else r
        if t == "param":
            if bind:
                scope = bind.get("__init__", {}) if node.get("i") else bind
                if node["n"] in scope:
                    bound: Node = scope[node["n"]]
                    return bound
                if node.get("d") is not None and (not node.get("i") or "__init__" in bind):
                    return self.ev(node["d"], None, d)  # not passed at this call: its default
            return node
        if t == "env":
            dv = node.get("d")
            return {"t": "env", "n": node["n"], "d": self.ev(dv, bind, d) if dv is not None else None}
        if t == "cat":
            parts = [self.ev(p, bind, d) for p in node["p"]]
            if any(p["t"] == "list" for p in parts):
                out: list[Node] = []
                for p in parts:
                    out.extend(p["v"] if p["t"] == "list" else [p])
                return {"t": "list", "v": out}
            return cat(parts)
        if t == "call":
            fv = self.ev(node["f"], bind, d)
            args = [self.ev(a, bind, d) for a in node["a"]]
            kw = {k: self.ev(v, bind, d) for k, v in node["k"].items()}
            res = self.apply(fv, args, kw, node.get("id"), d)
            if "at" in node and res["t"] == "inst":
                res = {**res, "at": node["at"]}
            return res
        if t == "strm":  # a str method waiting for a parameter: ``f"{key}_q".replace("*", "_")``
            inner = self.ev(node["o"], bind, d)
            ready = inner["t"] == "lit" or (inner["t"] == "cat" and not any(p["t"] == "param" for p in inner["p"]))
            folded = _str_method(inner, node["n"], node["a"]) if ready else None
            return folded if folded is not None else {**node, "o": inner}
        if t == "attr":
            return self.getattr(self.ev(node["o"], bind, d), node["n"])
        if t == "idx":
            return self.index(self.ev(node["o"], bind, d), self.ev(node["i"], bind, d))
        if t == "or":
            first = self.ev(node["v"][0], bind, d)
            if first["t"] == "env" and (first.get("d") is None or first["d"]["t"] == "none"):
                return {"t": "env", "n": first["n"], "d": self.ev(node["v"][1], bind, d)}
            if first["t"] == "param":  # ``base_url or conf.url``: decided where the caller binds it
                return {"t": "or", "v": [first, self.ev(node["v"][1], bind, d)]}
            return self.ev(node["v"][1], bind, d) if first["t"] in ("none", "unk") else first
        if t in ("list", "any"):
            return {"t": t, "v": [self.ev(x, bind, d) for x in node["v"]]}
        if t == "vals":  # a loop over a table's values
            table = self.ev(node["o"], bind, d)
            if table["t"] == "dict" and 0 < len(table["v"]) <= _MAX_TABLE:
                return {"t": "any", "v": [table["v"][k] for k in sorted(table["v"])]}
            return unk(describe(table) + ".values()")
        if t == "dict":
            return {"t": "dict", "v": {k: self.ev(x, bind, d) for k, x in node["v"].items()}}
        if bind and t in ("inst", "ret"):
            return {
                **node,
                "a": [self.ev(x, bind, d) for x in node["a"]],
                "k": {k: self.ev(x, bind, d) for k, x in node["k"].items()},
            }
        if bind and t == "bm":
            return {**node, "o": self.ev(node["o"], bind, d)}
        return node

    def apply(
        self, fv: Node, args: list[Node], kw: dict[str, Node], ident: str | None, depth: int = 0
    ) -> Node:
        t = fv["t"]
        if t == "bm" and fv["n"] == "format" and fv["o"]["t"] == "lit":
            return fold_format(fv["o"]["v"], args, kw)  # a template kept in a constant
        if t == "bm" and fv["n"] in _STR_METHODS and fv["o"]["t"] in ("lit", "cat"):
            if fv["o"]["t"] == "cat" and any(p["t"] == "param" for p in fv["o"]["p"]):
                # applied once the wrapper's parameter is known (at its call sites)
                return {"t": "strm", "o": fv["o"], "n": fv["n"], "a": args}
            folded = _str_method(fv["o"], fv["n"], args)
            if folded is not None:
                return folded
        if args and appconfig.is_config_get(fv):
            key = literal(args[0])
            configured = self.config_value(key) if key is not None else None
            if configured is not None or len(args) > 1:
                return configured if configured is not None else args[1]
        if t == "ext":
            special = self._apply_ext(fv["q"], args, kw, depth)
            if special is not None:
                return special
        if t in ("ext", "cls"):
            inst: Node = {"t": "inst", "c": fv, "a": args, "k": kw}
            if ident:
                inst["id"] = ident
            return inst
        if t == "fn":
            info = self.files[fv["p"]]["funcs"].get(fv["n"], {})
            key = "call:" + fv["p"] + "#" + fv["n"]
            if "ret" in info and key not in self._active and depth < _MAX_DEPTH:
                self._active.add(key)
                try:
                    return self.ev(info["ret"], self.bind_call(fv, args, kw), depth + 1)
                finally:
                    self._active.discard(key)
        if t == "inst" and self._inst_q(fv) in ENV_OBJECTS:
            return self._env(args, kw)
        if t == "bm" and fv["o"]["t"] == "inst":
            res = self._apply_method(fv["o"], fv["n"], args, kw)
            if res is not None:
                return res
        return {"t": "ret", "f": fv, "a": args, "k": kw}

    def _apply_ext(self, q: str, args: list[Node], kw: dict[str, Node], depth: int) -> Node | None:
        if q in ENV_FUNCS:
            return self._env(args, kw)
        if q in ("builtins.str", "typing.cast"):
            return args[-1] if args else {"t": "lit", "v": ""}
        if q in DEPENDS:
            return self.apply(args[0], [], {}, None, depth + 1) if args else unk("Depends()")
        if q in ("urllib.parse.urljoin", "os.path.join", "posixpath.join"):
            out: list[Node] = []
            for i, a in enumerate(args):
                out.extend([{"t": "lit", "v": "/"}, a] if i and q != "urllib.parse.urljoin" else [a])
            return cat(out) if out else None
        return None

    def _apply_method(self, o: Node, n: str, args: list[Node], kw: dict[str, Node]) -> Node | None:
        if self._inst_q(o) in ENV_OBJECTS and n in ENV_OBJECT_METHODS:
            return self._env(args, kw)
        fam = self.family(o)
        if fam == "boto3-session" and n in ("client", "resource"):
            svc = AWS_SERVICES.get(literal(args[0] if args else kw.get("service_name")) or "")
            return synthetic(svc) if svc else None
        spec = METHOD_RESULTS.get((fam or "", n))
        if spec is None:
            return None
        res_fam, (pos, key) = spec
        name = args[pos] if pos is not None and len(args) > pos else kw.get(key) if key else None
        return synthetic(res_fam, name)

    def _env(self, args: list[Node], kw: dict[str, Node]) -> Node:
        name = literal(args[0] if args else kw.get("key") or kw.get("var"))
        if name is None:
            return unk("env")
        default = args[1] if len(args) > 1 else kw.get("default")
        return {"t": "env", "n": name, "d": default}

    def index(self, o: Node, i: Node) -> Node:
        key = literal(i)
        t = o["t"]
        if key is not None and appconfig.is_config_node(o):
            configured = self.config_value(key)
            if configured is not None:
                return configured
        if t == "dict" and key is not None and key in o["v"]:
            item: Node = o["v"][key]
            return item
        if t == "dict" and key is None and 0 < len(o["v"]) <= _MAX_TABLE and i["t"] != "none":
            # a table looked up with a runtime key (``ROUTES[name]["host"]``): any of its values
            return {"t": "any", "v": [o["v"][k] for k in sorted(o["v"])]}
        if t == "any":
            return {"t": "any", "v": [self.index(x, i) for x in o["v"]]}
        if t == "env" and (o.get("d") or {}).get("t") == "dict":
            # a settings field holding a table (``services: dict[str, str] = {"orders": url}``):
            # the environment may replace the whole table, its default still names the entry
            return self.index(o["d"], i)
        if t == "ext" and o["q"] == "os.environ" and key is not None:
            return {"t": "env", "n": key, "d": None}
        if t == "list" and key is not None and key.lstrip("-").isdigit():
            idx = int(key)
            return o["v"][idx] if -len(o["v"]) <= idx < len(o["v"]) else unk(describe(o))
        if t == "inst":
            fam = self.family(o)
            if (fam, key) in RESPONSE_NAMES and "name" in o:
                named: Node = o["name"]
                return named
            if fam == "mongo-client":
                return synthetic("mongo-db", i)
            if fam == "mongo-db":
                return synthetic("mongo-coll", i)
        return unk(describe(o) + "[" + describe(i) + "]")

    def config_value(self, key: str) -> Node | None:
        """The value the service writes to its app's config under ``key`` (appconfig.py), or None."""
        if key in self._config:
            return self.ev(self._config[key])
        for raw in self._config_objects:
            obj = self.ev(raw)
            name = literal(obj)
            if name is not None:  # ``from_object("shop.settings.Production")``
                obj = self.lookup(name)
            if obj["t"] == "cls":
                found = self.class_attr(obj, key, None)
            elif obj["t"] == "mod":
                found = self._module_attr(obj["p"], key)
            else:
                continue
            if found is not MISSING:
                return found
        return None

    # ------------------------------------------------------------------ binding
    def bind_call(self, fn: Node, args: list[Node], kw: dict[str, Node]) -> dict[str, Any]:
        info = self.files[fn["p"]]["funcs"].get(fn["n"], {})
        names = list(info.get("p", ()))
        if (
            info.get("c")
            and names
            and not any(describe(d).endswith("staticmethod") for d in info.get("dec", ()))
        ):
            names = names[1:]
        bind: dict[str, Any] = {}
        for name, a in zip(names, args):
            bind[name] = a
        for k, v in kw.items():
            if k in names:
                bind[k] = v
        inst = fn.get("self")
        if inst is not None and inst["c"]["t"] == "cls":
            bind["__init__"] = self.init_binding(inst)
        return bind

    def init_binding(self, inst: Node) -> dict[str, Node]:
        init = self.class_attr(inst["c"], "__init__", None)
        if init is MISSING or init["t"] != "fn":
            return {}
        b = self.bind_call({"t": "fn", "p": init["p"], "n": init["n"]}, inst["a"], inst["k"])
        b.pop("__init__", None)
        return b

    def bind_self(self, r: Node, c: Node, inst: Node) -> Node:
        b = self.init_binding(inst)
        return self.ev(r, {"__init__": b}) if b else r

    # ------------------------------------------------------------------ object kinds
    def _inst_q(self, v: Node) -> str | None:
        c = v.get("c")
        return c["q"] if c and c["t"] == "ext" else None

    def family(self, v: Node) -> str | None:
        """The library family of an instance (its class, or the nearest external ancestor)."""
        if v["t"] != "inst":
            return None
        c = v["c"]
        if c["t"] == "ext":
            q: str = c["q"]
            if q.startswith("@"):
                return q[1:]
            if q in FAMILIES:
                return FAMILIES[q]
            if q in BOTO_CLIENTS:
                return AWS_SERVICES.get(literal(v["a"][0] if v["a"] else v["k"].get("service_name")) or "")
            return None
        if c["t"] == "cls":
            for q in sorted(self.ancestors(c)[1]):
                if q in FAMILIES:
                    return FAMILIES[q]
        return None

    def as_object(self, v: Node) -> Node:
        """A parameter seen as the object it stands for: its Depends() provider, else its annotation."""
        if v["t"] != "param":
            return v
        if "d" in v:
            d = self.ev(v["d"])
            if d["t"] == "inst" or d["t"] == "fn":
                return d
        if "ty" in v:
            c = self.lookup(v["ty"])
            if c["t"] in ("ext", "cls"):
                return {"t": "inst", "c": c, "a": [], "k": {}}
        return v


_STR_METHODS = frozenset({"replace", "lower", "upper"})


def _str_method(value: Node, name: str, args: list[Node]) -> Node | None:
    """``f"{key}_queue".replace("*", "_")``, ``name.lower()``: applied to the literal text of a
    string; the parts not known (a parameter, an env read) are kept as they are."""
    op: Callable[[str], str]
    if name == "replace":
        old, new = (literal(a) for a in args[:2]) if len(args) >= 2 else (None, None)
        if not old or new is None:
            return None
        op = lambda text: text.replace(old, new)  # noqa: E731
    else:
        op = str.lower if name == "lower" else str.upper
    parts = value["p"] if value["t"] == "cat" else [value]
    return cat([lit(op(p["v"])) if p["t"] == "lit" else p for p in parts])
