"""The linker's view of one service: classes across files, and constant resolution of folded values.

``["ref", "Paths.V1"]`` parts left by ``parse`` are looked up here: the class's own fields, its
outer and super classes, static imports, Kotlin top-level constants, then ``Class.NAME`` (nested
and package-qualified forms too) anywhere in the service.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from orbitkb.analysis.facts import Env, Expr, Lit, Part, Prop, Unknown, placeholder
from orbitkb.analysis.jvm.tables import TEST_DIRS, TEST_SOURCE_SET_WORDS

_MAX_DEPTH = 12
#: a method parameter inside a resolved Expr: calls through thin wrappers substitute it
PARAM_MARK = "\x00param:"
#: a constructor argument a field holds (``this.base = base``): filled where ``new X(...)`` is called
CTOR_MARK = "\x00ctor:"


_SOURCE_SET = re.compile(r"(?:^|/)src/([^/]+)/")
_WORD = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def is_test_path(path: str) -> bool:
    probe = "/" + path
    if any("/" + d in probe for d in TEST_DIRS):
        return True
    return any(_test_source_set(m.group(1)) for m in _SOURCE_SET.finditer(path))


def _test_source_set(name: str) -> bool:
    """``integration-test`` / ``componentTest`` / ``e2e``: a source set named as tests."""
    return name != "main" and any(w.lower() in TEST_SOURCE_SET_WORDS for w in _WORD.findall(name))


class ClassRef:
    """One class of the service, with the file it lives in."""

    __slots__ = ("path", "data", "file", "fields", "methods")

    def __init__(self, path: str, data: dict[str, Any], file: dict[str, Any]) -> None:
        self.path = path
        self.data = data
        self.file = file
        self.fields: dict[str, dict[str, Any]] = {f["name"]: f for f in data["fields"]}
        self.methods: dict[str, list[dict[str, Any]]] = {}
        for m in data["methods"]:
            self.methods.setdefault(m["name"], []).append(m)

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def qname(self) -> str:
        return str(self.data["qname"])

    def ann(self, *names: str) -> list[Any] | None:
        for a in self.data["anns"]:
            if a[0] in names:
                return list(a)
        return None

    def super_names(self) -> list[str]:
        return [s[0].rsplit(".", 1)[-1] for s in self.data["supers"]]


def _file_class(path: str, cdata: dict[str, Any]) -> dict[str, Any]:
    """Kotlin top-level declarations are named after their file (``FooKt``); parse results are
    cached by content, so a same-text file under another name must be renamed here."""
    name = path.rsplit("/", 1)[-1].rsplit(".", 1)[0] + "Kt"
    return cdata if cdata["name"] == name else {**cdata, "name": name, "qname": name}


class ServiceIndex:
    """``classes`` are the service's own; classes of ``context`` files (libraries it builds
    against) are found by name, for constants and supertypes, but produce no facts."""

    def __init__(self, parsed: Mapping[str, dict[str, Any]], context: Collection[str] = ()) -> None:
        self.classes: list[ClassRef] = []
        self.by_name: dict[str, list[ClassRef]] = {}
        self.by_qname: dict[str, list[ClassRef]] = {}
        self.top_level: dict[str, list[ClassRef]] = {}  # Kotlin top-level property -> file classes
        self.implementers: dict[str, list[ClassRef]] = {}
        self.static_imports: dict[str, dict[str, str]] = {}
        # own files first: a name both declare resolves to the service's own class
        for path in sorted(parsed, key=lambda p: (p in context, p)):
            data = parsed[path]
            if "error" in data or is_test_path(path) or "classes" not in data:
                continue
            statics = {}
            for imp in data.get("imports", []):
                if imp.startswith("static ") and not imp.endswith("*"):
                    target = imp[7:]
                    statics[target.rsplit(".", 1)[-1]] = target
            self.static_imports[path] = statics
            for cdata in data["classes"]:
                if cdata["kind"] == "file":
                    cdata = _file_class(path, cdata)
                ref = ClassRef(path, cdata, data)
                if path not in context:
                    self.classes.append(ref)
                self.by_name.setdefault(ref.name, []).append(ref)
                self.by_qname.setdefault(ref.qname, []).append(ref)
                if cdata["kind"] == "file":
                    for fname in ref.fields:
                        self.top_level.setdefault(fname, []).append(ref)
                for sup in ref.super_names():
                    self.implementers.setdefault(sup, []).append(ref)

    def find(self, name: str) -> ClassRef | None:
        """A class by simple, nested or package-qualified name (first in path order)."""
        name = name.split("<", 1)[0].rstrip("?")
        hits = self.by_qname.get(name) or self.by_name.get(name)
        if hits:
            return hits[0]
        segments = name.split(".")
        for i in range(1, len(segments)):
            hits = self.by_qname.get(".".join(segments[i:]))
            if hits:
                return hits[0]
        return None

    def supers(self, ref: ClassRef) -> list[ClassRef]:
        out = []
        for sup in ref.data["supers"]:
            found = self.find(sup[0])
            if found is not None and found is not ref:
                out.append(found)
        return out

    # ----------------------------------------------------------------- constants

    def _field(self, ref: ClassRef, name: str, seen: set[int]) -> tuple[ClassRef, dict[str, Any]] | None:
        if id(ref) in seen:
            return None
        seen.add(id(ref))
        fld = ref.fields.get(name)
        if fld is not None and fld.get("value") is not None:
            return ref, fld
        for sup in self.supers(ref):
            hit = self._field(sup, name, seen)
            if hit is not None:
                return hit
        return None

    def lookup(self, name: str, ref: ClassRef) -> tuple[ClassRef, list[list[Any]]] | None:
        if "." not in name:
            # own class, then enclosing classes, then supertypes
            qname = ref.qname
            while True:
                enclosing = self.by_qname.get(qname, [ref])[0] if qname != ref.qname else ref
                hit = self._field(enclosing, name, set())
                if hit is not None:
                    return hit[0], hit[1]["value"]
                if "." not in qname:
                    break
                qname = qname.rsplit(".", 1)[0]
            target = self.static_imports.get(ref.path, {}).get(name)
            if target is not None:
                return self.lookup(target, ref)
            for holder in self.top_level.get(name, []):
                fld = holder.fields[name]
                if fld.get("value") is not None:
                    return holder, fld["value"]
            return None
        owner_name, _, field = name.rpartition(".")
        owner = self.find(owner_name)
        if owner is None:
            return None
        hit = self._field(owner, field, set())
        return (hit[0], hit[1]["value"]) if hit is not None else None

    def resolve(
        self, parts: list[list[Any]] | None, ref: ClassRef, depth: int = 0, marks: bool = False
    ) -> Expr | None:
        """Parts of ``ref`` as an Expr; ``marks``: a constructor argument a field holds stays a
        ``CTOR_MARK`` placeholder (for call sites to fill), else it is an unknown named after it."""
        if parts is None:
            return None
        out: list[Part] = []
        for part in parts:
            tag = part[0]
            if tag == "lit":
                out.append(Lit(part[1]))
            elif tag == "prop":
                out.append(Prop(part[1] or "", part[2]))
            elif tag == "env":
                out.append(Env(part[1] or "", part[2]))
            elif tag == "ref":
                hit = self.lookup(part[1], ref) if depth < _MAX_DEPTH else None
                inner = self.resolve(hit[1], hit[0], depth + 1, marks) if hit is not None else None
                out.extend(inner.parts if inner is not None else (Unknown(part[1]),))
            elif tag == "param":
                out.append(Unknown(PARAM_MARK + str(part[1])))
            elif tag == "ctor":
                out.append(Unknown(f"{CTOR_MARK}{part[1]}:{part[2]}" if marks else str(part[2])))
            elif tag == "call":
                folded = self._returned(part, ref, depth) if depth < _MAX_DEPTH else None
                out.extend(folded.parts if folded is not None else (Unknown(part[4]),))
            elif tag == "cls":  # a class named in code (Eventuate aggregate types): its qualified name
                out.append(Lit(qualified(self, part)))
            else:
                out.append(Unknown(part[1] or ""))
        return merge(out)

    def _returned(self, part: list[Any], ref: ClassRef, depth: int) -> Expr | None:
        """``["call", owner, method, args, hint]``: what the method returns, its parameters bound to
        the arguments; for a getter without a body we know, the field it reads."""
        _, owner_name, method, args, _hint = part
        owners = self._method_owners(ref) if not owner_name else [self.find(owner_name)]
        for owner in owners:
            if owner is None:
                continue
            declared = [m for m in owner.methods.get(method, ()) if len(m["params"]) == len(args)]
            env = next((m["env_helper"] for m in declared if m.get("env_helper")), None)
            if env is not None:
                return self._env_read(env, args, ref, depth)
            body = next((m for m in declared if m.get("returns") is not None), None)
            if body is not None:
                value = self.resolve(body["returns"], owner, depth + 1)
                if value is None or all(isinstance(p, Unknown) for p in value.parts):
                    return None  # nothing known: the call's own text says more
                bound = {
                    p[0]: self.resolve(a, ref, depth + 1) or Expr(())
                    for p, a in zip(body["params"], args, strict=True)
                }
                return _bind(value, bound)
            if not args:
                fld = owner.fields.get(_getter_field(method))
                value = self.resolve(fld.get("value"), owner, depth + 1) if fld is not None else None
                if value is not None and not all(isinstance(p, Unknown) for p in value.parts):
                    return value
        return None

    def _env_read(self, env: list[Any], args: list[Any], ref: ClassRef, depth: int) -> Expr | None:
        """``getenv("CART_HOST", "cart")`` through the project's own helper: that variable, that default."""
        key, default = env
        name = self.resolve(args[key], ref, depth + 1)
        fallback = self.resolve(args[default], ref, depth + 1) if default is not None else None
        if name is None or len(name.parts) != 1 or not isinstance(name.parts[0], Lit):
            return None
        given = fallback.parts[0] if fallback is not None and len(fallback.parts) == 1 else None
        return Expr((Env(name.parts[0].text, given.text if isinstance(given, Lit) else None),))

    def _method_owners(self, ref: ClassRef) -> list[ClassRef | None]:
        """A class's own method, then its enclosing classes' and its supertypes'."""
        out: list[ClassRef | None] = [ref]
        qname = ref.qname
        while "." in qname:
            qname = qname.rsplit(".", 1)[0]
            out.append(self.by_qname.get(qname, [None])[0])
        out.extend(self.supers(ref))
        return out


def _getter_field(method: str) -> str:
    """``getBaseUrl`` / ``isSecure`` -> ``baseUrl`` / ``secure``; a record accessor is its field."""
    for prefix in ("get", "is"):
        if method.startswith(prefix) and method[len(prefix) : len(prefix) + 1].isupper():
            rest = method[len(prefix) :]
            return rest[:1].lower() + rest[1:]
    return method


def _bind(value: Expr, bound: dict[str, Expr]) -> Expr:
    parts: list[Part] = []
    for p in value.parts:
        if isinstance(p, Unknown) and p.hint.startswith(PARAM_MARK):
            name = p.hint[len(PARAM_MARK) :]
            parts.extend(bound[name].parts if name in bound else (Unknown(name),))
        else:
            parts.append(p)
    return merge(parts)


def merge(parts: list[Part]) -> Expr:
    out: list[Part] = []
    for p in parts:
        if isinstance(p, Lit) and out and isinstance(out[-1], Lit):
            out[-1] = Lit(out[-1].text + p.text)
        elif not (isinstance(p, Lit) and not p.text):
            out.append(p)
    return Expr(tuple(out))


def render(expr: Expr | None) -> str:
    """An Expr as text for paths and channel names: props as ${key}, unknowns as {hint}."""
    if expr is None:
        return ""
    out = []
    for p in expr.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Prop):
            out.append(placeholder(p.key, p.default))
        elif isinstance(p, Env):
            out.append("${" + p.name + "}")
        else:
            out.append("{" + p.hint + "}")
    return "".join(out)


def join_path(*segments: str) -> str:
    """Compose URL path segments: leading "/", single slashes, no trailing slash except "/"."""
    joined = "/".join(s.strip() for s in segments if s and s.strip())
    while "//" in joined:
        joined = joined.replace("//", "/")
    joined = "/" + joined.lstrip("/")
    return joined.rstrip("/") or "/"


def qualified(index: ServiceIndex, part: list[Any]) -> str:
    """The fully qualified name of a ``cls`` part: the class's own package when it is in the service
    (the one in the guessed package first), else the guess."""
    hits = index.by_qname.get(part[1]) or index.by_name.get(part[1]) or []
    named = [f"{h.file['package']}.{h.qname}" if h.file.get("package") else h.qname for h in hits]
    return str(part[2]) if part[2] in named or not named else named[0]
