"""Cross-module resolution for one service: import specifiers to files, symrefs to targets, parts to Expr.

A target is a tuple: ("obj", file, key, binding) a framework object or object literal,
("fn", file, fid), ("cls", file, name), ("val", file, parts), ("param", file, fid, index),
("inst", file, class) an instance, ("type", file, type name, binding) an injected field,
("module", file) a module namespace, ("ext", spec, dotted) something from a package.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping
from typing import Any

from ..facts import Env, Expr, Lit, Part, Prop, Unknown
from . import convict

Target = tuple[Any, ...]
_EXTS = (".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")
_MAX_DEPTH = 24
# Folding a call expands the callee's return value: a recursive helper would double at each level.
_MAX_CALL_DEPTH = 8


class ModuleIndex:
    """Maps import specifiers to files of the service (relative, `.js`-for-`.ts`, index files, `@/`)."""

    def __init__(self, files: Mapping[str, Any], root_dir: str, libraries: Iterable[str] = ()) -> None:
        self.by_stem: dict[str, str] = {}
        # .ts before .js: a compiled twin next to its source must not shadow it.
        sources = [p for p in files if posixpath.splitext(p)[1] in _EXTS]
        for path in sorted(sources, key=lambda p: (_EXTS.index(posixpath.splitext(p)[1]), p)):
            stem = posixpath.splitext(path)[0]
            self.by_stem.setdefault(stem, path)
            if posixpath.basename(stem) == "index":
                self.by_stem.setdefault(posixpath.dirname(stem), path)
        root = "" if root_dir in ("", ".") else root_dir.rstrip("/")
        self.bases = [b for b in (root, posixpath.join(root, "src") if root else "src") if b is not None]
        self._resolved: dict[tuple[str, str], str | None] = {}  # (importer folder, spec) -> file
        #: library folder name -> folders, for the library files a linker was handed
        self.libraries: dict[str, list[str]] = {}
        for folder in sorted({_library_root(p) for p in libraries}):
            self.libraries.setdefault(posixpath.basename(folder), []).append(folder)

    def resolve(self, importer: str, spec: str) -> str | None:
        key = (posixpath.dirname(importer) if spec.startswith(".") else "", spec)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(importer, spec)
        return self._resolved[key]

    def _resolve(self, importer: str, spec: str) -> str | None:
        if spec.startswith("."):
            joined = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
            return self._find(joined)
        for alias in ("@/", "~/", "src/", "@src/", "@app/"):
            if spec.startswith(alias):
                for base in self.bases:
                    found = self._find(posixpath.join(base, spec[len(alias) :]))
                    if found:
                        return found
        if "/" in spec and not spec.startswith("@"):
            for base in self.bases:  # tsconfig baseUrl imports: "modules/orders/orders.service"
                found = self._find(posixpath.join(base, spec) if base else spec)
                if found:
                    return found
        return self._library(spec)

    def _library(self, spec: str) -> str | None:
        """A path alias of a library project (``@app/common``, ``@shop/common/dto``): the library
        folder named like the package, its ``src`` first (Nest's ``sourceRoot``)."""
        parts = spec.split("/")
        name, sub = (parts[1:2], parts[2:]) if spec.startswith("@") else (parts[:1], parts[1:])
        for folder in self.libraries.get(name[0] if name else "", ()):
            for base in (posixpath.join(folder, "src"), folder):
                found = self._find(posixpath.join(base, *sub)) if sub else self._find(base)
                if found:
                    return found
        return None

    def _find(self, path: str) -> str | None:
        found = self.by_stem.get(path)
        if found:
            return found
        stem, ext = posixpath.splitext(path)
        if ext in _EXTS or ext == ".json":
            return self.by_stem.get(stem)
        return None


class Resolver:
    def __init__(self, files: Mapping[str, dict[str, Any]], index: ModuleIndex) -> None:
        self.files = files
        self.index = index
        self.class_files: dict[str, str] = {}
        self._expanding: set[tuple[str, str]] = set()
        #: (file, exported name) -> target: barrels re-exporting barrels (``export * from``) are
        #: walked once, not once per import
        self._exports: dict[tuple[str, str], Target | None] = {}
        self._cut = False
        for path in sorted(files):
            for cls in files[path].get("classes", {}):
                self.class_files.setdefault(cls, path)
        #: convict settings of the service: `config.get("user.url")` -> [env variable, default]
        self.convict = convict.settings(files)

    # ------------------------------------------------------------------ symrefs
    def resolve(self, file: str, ref: list[Any] | None, depth: int = 0) -> Target | None:
        if depth > _MAX_DEPTH:
            self._cut = True
            return None
        if ref is None or file not in self.files:
            return None
        kind = ref[0]
        data = self.files[file]
        if kind == "loc":
            return self.member(self._local(file, ref[1], depth), ref[2], depth)
        if kind == "fid":
            return ("fn", file, ref[1])
        if kind == "imp":
            target = self._import(file, ref[1], ref[2], depth)
            return self.member(target, ref[3], depth)
        if kind == "param":
            return ("param", file, ref[1], ref[2]) if not ref[3] else None
        if kind == "this":
            return self.member(("inst", file, ref[1]), ref[2], depth)
        if kind == "new":
            ctor = self.resolve(file, ref[1], depth + 1)
            return ("inst", ctor[1], ctor[2]) if ctor is not None and ctor[0] == "cls" else None
        if kind == "ret":
            fn = self.resolve(file, ref[1], depth + 1)
            if fn is not None and fn[0] == "module":  # `require("./adapter")(x)`: module.exports = fn
                fn = self.export(fn[1], "default", depth + 1)
            if fn is None or fn[0] != "fn":
                return None
            return _bound(self.returned(fn[1], fn[2], depth + 1), ref[2] if len(ref) > 2 else [])
        if kind == "member":
            return self.member(self.resolve(file, ref[1], depth + 1), ref[2], depth)
        if kind == "deco":  # `fastify.config.apiUrl`: what a file of the service decorated it with
            return self._decorated(ref[1], ref[2])
        del data
        return None

    def _decorated(self, name: str, field: str) -> Target | None:
        for path in sorted(self.files):
            value = self.files[path].get("decorations", {}).get(name, {}).get(field)
            if value:
                return ("val", path, value)
        return None

    def _local(self, file: str, key: str, depth: int) -> Target | None:
        data = self.files[file]
        binding = data.get("bindings", {}).get(key)
        if binding is not None:
            return self.binding_target(file, binding, depth + 1)
        if key in data.get("functions", {}):
            return ("fn", file, key)
        if key in data.get("classes", {}):
            return ("cls", file, key)
        return None

    def binding_target(self, file: str, binding: Mapping[str, Any], depth: int = 0) -> Target | None:
        kind = binding.get("k")
        if kind == "val":
            return ("val", file, binding["v"])
        if kind == "obj":
            return ("obj", file, binding.get("key", ""), binding)
        if kind == "fn":
            return ("fn", file, binding["fid"])
        if kind == "cls":
            return ("cls", file, binding["name"])
        if kind == "imp":
            return self.resolve(
                file, ["imp", binding["spec"], binding["name"], binding.get("rest", "")], depth + 1
            )
        if kind == "alias":
            return self.resolve(file, binding["ref"], depth + 1)
        if kind == "param":
            return ("param", file, binding["fid"], binding["idx"])
        if kind == "type":
            return ("type", file, binding.get("name", ""), binding)
        return None

    def _import(self, file: str, spec: str, name: str, depth: int) -> Target | None:
        target = self.index.resolve(file, spec)
        if target is None:
            return ("ext", spec, "" if name in ("*", "default") else name)
        if name == "*":
            return ("module", target)
        return self.export(target, name, depth + 1)

    def export(self, file: str, name: str, depth: int = 0) -> Target | None:
        key = (file, name)
        if key in self._exports:
            return self._exports[key]
        outer, self._cut = self._cut, False
        found = self._export(file, name, depth)
        if not self._cut:  # an answer the depth limit shaped is not kept
            self._exports[key] = found
        self._cut = outer or self._cut
        return found

    def _export(self, file: str, name: str, depth: int = 0) -> Target | None:
        if depth > _MAX_DEPTH:
            self._cut = True
            return None
        if file not in self.files:
            return None
        data = self.files[file]
        local = data.get("exports", {}).get(name)
        if local is not None:
            return self._local(file, local, depth)
        for spec in data.get("star_exports", []):
            other = self.index.resolve(file, spec)
            if other is not None:
                found = self.export(other, name, depth + 1)
                if found is not None:
                    return found
        if name != "default":
            return self._local(file, name, depth)  # an unexported or CommonJS-assigned name
        return None

    def member(self, target: Target | None, rest: str, depth: int = 0) -> Target | None:
        if target is None or not rest or depth > _MAX_DEPTH:
            return target
        head, _, tail = rest.partition(".")
        kind = target[0]
        nxt: Target | None = None
        if kind == "module":
            nxt = self.export(target[1], head, depth + 1)
            if nxt is None:
                default = self.export(target[1], "default", depth + 1)
                return self.member(default, rest, depth + 1) if default and default[0] != "module" else None
        elif kind == "obj":
            file, key = target[1], target[2]
            bindings = self.files[file].get("bindings", {})
            if f"{key}.{rest}" in bindings:
                return self.binding_target(file, bindings[f"{key}.{rest}"], depth + 1)
            nxt = self._local(file, f"{key}.{head}", depth) if f"{key}.{head}" in bindings else None
        elif kind in ("cls", "inst"):
            nxt = self._class_member(target[1], target[2], head, depth)
        elif kind == "type":
            cls_file = self.class_for(target[1], target[2])
            nxt = self._class_member(cls_file, target[2], head, depth) if cls_file else None
        elif kind == "ext":
            return ("ext", target[1], f"{target[2]}.{rest}" if target[2] else rest)
        return self.member(nxt, tail, depth + 1) if nxt is not None else None

    def returned(self, file: str, fid: str, depth: int = 0) -> Target | None:
        """What a function returns: an object it names (`return router`), else its folded value
        (`return this.config.get("X")`, `() => process.env.BASE ?? "http://x"`)."""
        record = self.files.get(file, {}).get("functions", {}).get(fid)
        if record is None or depth > _MAX_DEPTH:
            return None
        found = self.resolve(file, record.get("returns"), depth + 1)
        if found is not None:
            return found
        value = record.get("ret_v")
        return ("val", file, value) if value else None

    def returned_field(self, file: str, ref: list[Any], field: str) -> tuple[list[Any], list[Part]] | None:
        """A field of the object literal a function of the service returns, called as ``ref``
        (["ret", fn, args]): its raw parts, and its value with the parameters bound to the arguments."""
        fn = self.resolve(file, ref[1]) if ref and ref[0] == "ret" else None
        if fn is None or fn[0] != "fn":
            return None
        binding = self.files[fn[1]].get("bindings", {}).get(f"{fn[2]}:<returned>.{field}")
        if binding is None or binding.get("k") != "val":
            return None
        args = {i: self.parts(file, a) for i, a in enumerate(ref[2] if len(ref) > 2 else [])}
        return binding["v"], self.parts(fn[1], binding["v"], params=args)

    def _class_member(self, file: str, cls: str, name: str, depth: int) -> Target | None:
        data = self.files.get(file, {})
        method = data.get("functions", {}).get(f"{cls}.{name}")
        if method is not None:
            if method.get("getter"):  # `get baseUrl() { return ... }` read as a property
                return self.returned(file, f"{cls}.{name}", depth + 1)
            return ("fn", file, f"{cls}.{name}")
        info = data.get("classes", {}).get(cls)
        if info is None:
            return None
        field = info.get("fields", {}).get(name)
        if field is not None:
            return self.binding_target(file, field, depth + 1)
        parent = (info.get("extends") or "").removeprefix("extends ").split("<")[0].strip()
        if parent and parent != cls:
            parent_file = self.class_for(file, parent)
            if parent_file:
                return self._class_member(parent_file, parent, name, depth + 1)
        return None

    def class_for(self, file: str, name: str) -> str | None:
        """The file declaring class ``name`` as seen from ``file`` (its imports, else the service)."""
        name = name.split("<")[0].strip()
        data = self.files.get(file, {})
        if name in data.get("classes", {}):
            return file
        binding = data.get("bindings", {}).get(name)
        if binding is not None:
            target = self.binding_target(file, binding)
            if target is not None and target[0] == "cls":
                return str(target[1])
        return self.class_files.get(name)

    # ------------------------------------------------------------------ values
    def expr(self, file: str, parts: list[Any] | None, depth: int = 0) -> Expr | None:
        if parts is None:
            return None
        out = self.parts(file, parts, depth)
        return Expr(tuple(_merge(out))) if out else None

    def parts(
        self,
        file: str,
        parts: list[Any],
        depth: int = 0,
        params: Mapping[Any, list[Part]] | None = None,
    ) -> list[Part]:
        """Resolve raw parts of ``file``; ``params`` supplies the values of the enclosing function's
        parameters (already resolved at a call site), the others stay `{name}` placeholders."""
        out: list[Part] = []
        for part in parts:
            tag = part[0]
            if tag == "lit":
                out.append(Lit(part[1]))
            elif tag == "env":
                default = part[2] if len(part) > 2 else None
                declared = self.convict.get(part[1]) if default is None else None
                if declared is not None:  # a convict setting: its variable and its default
                    out.append(Env(declared[0] or part[1], declared[1]))
                else:
                    out.append(Env(part[1], default))
            elif tag == "prop":
                out.append(Prop(part[1], part[2] if len(part) > 2 else None))
            elif tag == "param":
                given = params.get(part[1]) if params is not None else None
                out.extend(given if given is not None else [Unknown(str(part[2]))])
            elif tag == "ref":
                out.extend(self._ref_parts(file, part, depth))
            elif tag == "call":
                out.extend(self._call_parts(file, part, depth, params))
            elif tag == "ctor":  # a constructor argument no `new` site filled: named as written
                out.append(Unknown(str(part[3])))
            elif tag == "envp":
                out.append(_env_read(part, params))
            elif tag == "envk":
                out.append(self._env_named(file, part, depth, params))
            elif tag == "keyp":
                out.extend(self._keyed(file, part, depth, params))
            else:
                out.append(Unknown(str(part[1])))
        return out

    def _env_named(
        self, file: str, part: list[Any], depth: int, params: Mapping[Any, list[Part]] | None
    ) -> Part:
        """``["envk", key parts, default]``: the variable the key spells once the parameters in it
        are known (a literal argument at the call site), else unknown."""
        key = self.parts(file, part[1], depth + 1, params)
        if key and all(isinstance(p, Lit) for p in key):
            return Env("".join(p.text for p in key if isinstance(p, Lit)), part[2])
        return Unknown("".join(p.text if isinstance(p, Lit) else "{}" for p in key))

    def _keyed(
        self, file: str, part: list[Any], depth: int, params: Mapping[Any, list[Part]] | None
    ) -> list[Part]:
        """``["keyp", symref, index, hint]``: the key of the object a literal argument names, else unknown."""
        key = (params or {}).get(part[2])
        if not key or len(key) != 1 or not isinstance(key[0], Lit) or not key[0].text:
            return [Unknown(str(part[3]))]
        return self._ref_parts(file, ["ref", ["member", part[1], key[0].text], None], depth + 1)

    def _ref_parts(self, file: str, part: list[Any], depth: int) -> list[Part]:
        target = self.resolve(file, part[1]) if depth < _MAX_DEPTH else None
        if target is not None and target[0] == "val":
            return self.parts(target[1], target[2], depth + 1)
        default = part[2] if len(part) > 2 else None
        return [Lit(default)] if default is not None else [Unknown(ref_text(part[1]))]

    def _call_parts(
        self, file: str, part: list[Any], depth: int, params: Mapping[Any, list[Part]] | None
    ) -> list[Part]:
        """`${this.url("/orders")}`: the callee's return value with its parameters bound to the args."""
        fn = self.resolve(file, part[1]) if depth < _MAX_CALL_DEPTH else None
        key = (str(fn[1]), str(fn[2])) if fn is not None and fn[0] == "fn" else None
        value = self.returned(*key, depth + 1) if key and key not in self._expanding else None
        if key and value is not None and value[0] == "val":
            args = {i: self.parts(file, a, depth + 1, params) for i, a in enumerate(part[2])}
            self._expanding.add(key)  # a recursive helper stays unknown past its first level
            try:
                return self.parts(value[1], value[2], depth + 1, args)
            finally:
                self._expanding.discard(key)
        default = part[4] if len(part) > 4 else None
        return [Lit(default)] if default is not None else [Unknown(str(part[3]))]


def _literal_arg(args: list[Any], index: Any) -> str | None:
    value = args[index] if isinstance(index, int) and 0 <= index < len(args) else None
    return value[0][1] if value and len(value) == 1 and value[0][0] == "lit" else None


def _env_filled(part: list[Any], args: list[Any]) -> list[Any]:
    """``["envp", ...]`` with the caller's raw arguments: ``["env", name, default]`` when the name is literal."""
    if part[0] == "keyp":  # `serviceUrl("cart")` made by a factory: that key of the registry
        key = _literal_arg(args, part[2])
        return ["ref", ["member", part[1], key], None] if key else part
    if part[0] != "envp":
        return part
    name = _literal_arg(args, part[1])
    if name is None:
        return part
    default = part[3] if isinstance(part[3], str) else _literal_arg(args, part[3])
    return ["env", name, default]


def _env_read(part: list[Any], params: Mapping[Any, list[Part]] | None) -> Part:
    """``["envp", index, name, default]`` where the helper is called with a literal name: that
    environment variable, with the default passed (a parameter's index) or written in the helper."""
    name = (params or {}).get(part[1])
    if not name or len(name) != 1 or not isinstance(name[0], Lit):
        return Unknown(str(part[2]))
    default = part[3]
    if isinstance(default, int):
        given = (params or {}).get(default)
        default = given[0].text if given and len(given) == 1 and isinstance(given[0], Lit) else None
    return Env(name[0].text, default)


def ref_text(ref: list[Any] | None) -> str:
    if not ref:
        return ""
    kind = ref[0]
    if kind == "imp":
        base = ref[2] if ref[2] not in ("*", "default") else posixpath.basename(ref[1])
        return f"{base}.{ref[3]}" if ref[3] else base
    if kind == "loc":
        return f"{ref[1]}.{ref[2]}" if ref[2] else ref[1]
    if kind == "this":
        return f"this.{ref[2]}" if ref[2] else "this"
    if kind == "member":
        return f"{ref_text(ref[1])}.{ref[2]}"
    if kind in ("glob", "fid"):
        return str(ref[1])
    if kind == "param":
        return str(ref[1])
    if kind in ("new", "ret"):
        return ref_text(ref[1])
    if kind == "deco":  # ["deco", name, field, instance]
        return ".".join(str(p) for p in (*ref[3:4], ref[1], ref[2]))
    return ""


def _merge(parts: list[Part]) -> list[Part]:
    out: list[Part] = []
    for part in parts:
        if isinstance(part, Lit) and out and isinstance(out[-1], Lit):
            out[-1] = Lit(out[-1].text + part.text)
        elif not (isinstance(part, Lit) and not part.text):
            out.append(part)
    return out


def path_text(expr: Expr | None) -> str:
    """A route path from its parts: literals as written, env/config by default or `{NAME}`."""
    if expr is None:
        return ""
    out = []
    for part in expr.parts:
        if isinstance(part, Lit):
            out.append(part.text)
        elif isinstance(part, (Env, Prop)):
            name = part.name if isinstance(part, Env) else part.key
            out.append(part.default if part.default is not None else "{" + name + "}")
        else:
            out.append("{" + part.hint + "}")
    return "".join(out)


def join_path(*pieces: str) -> str:
    segments = [seg for piece in pieces for seg in piece.split("/") if seg]
    return "/" + "/".join(segments)


def _bound(target: Target | None, args: list[Any]) -> Target | None:
    """An HTTP client a factory made from its parameters, with the caller's arguments in their place;
    a value an environment reader returns (`env("ORDERS_URL", "http://x")`), that variable."""
    if target is not None and target[0] == "val" and args:
        return (target[0], target[1], [_env_filled(p, args) for p in target[2]])
    if target is None or target[0] != "obj" or not args:
        return target
    binding = target[3]
    base = binding.get("base") or []
    if not any(p[0] == "param" for p in base):
        return target
    filled: list[Any] = []
    for p in base:
        filled.extend(args[p[1]] if p[0] == "param" and isinstance(p[1], int) and p[1] < len(args) else [p])
    return (target[0], target[1], target[2], {**binding, "base": filled})


def _library_root(path: str) -> str:
    """The project folder of a library file: the folder above its ``src``, else its own folder."""
    head, sep, _ = path.partition("/src/")
    return head if sep else posixpath.dirname(path)
