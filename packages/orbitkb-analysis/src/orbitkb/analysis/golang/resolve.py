"""Name and value resolution for the Go interpreter: identifiers through scopes, package-level
values and imports; struct fields (set, tagged ``env:``/``mapstructure:``, or noted elsewhere);
placeholders for declared types; composite literals."""

from __future__ import annotations

import posixpath
import re
from typing import Any

from orbitkb.analysis.golang import actions
from orbitkb.analysis.golang.frame import Frame
from orbitkb.analysis.golang.program import Program
from orbitkb.analysis.golang.tables import (
    COMPOSITES,
    ENV_DEFAULT_TAGS,
    ENV_TAGS,
    EXT_VARS,
    LIBS,
    PROP_TAGS,
    TYPES,
    normalize_import,
)
from orbitkb.analysis.golang.values import FuncRef, Obj, Pkg, S, Seq, Struct, Tup, Unk, V, lit

_TAG = re.compile(r'(\w+):"([^"]*)"')
#: A generated gRPC client constructor named as a value (``Typed(addr, pb.NewOrdersClient)``): a
#: factory that is handed it builds the client by calling it.
_CTOR_VALUE = re.compile(r"^New\w+Client$")


def _ctor_value(pkg: Pkg, name: str) -> V | None:
    return Obj("ext_func", pkg=pkg, name=name) if _CTOR_VALUE.match(name) else None


_SCALAR_TYPES = frozenset({"time.Duration", "time.Time", "url.URL", "net.IP", "json.RawMessage"})


def _prop_key(tags: dict[str, str]) -> str:
    """The configuration key a field's tags bind it to (``mapstructure:"brokers,omitempty"``)."""
    for t in PROP_TAGS:
        key = tags.get(t, "").split(",")[0]
        if key and key != "-":
            return key
    return ""


class Resolver:
    """Mixed into ``Interp``; relies on its ``eval`` and state."""

    prog: Program
    foreign: frozenset[str]
    probe: bool
    _gvals: dict[tuple[str, str], V]
    field_values: dict[tuple[str, str], dict[Any, V]]
    option_values: dict[tuple[str, str], dict[Any, V]]
    prop_defaults: dict[str, str]

    def eval(self, e: list[Any], fr: Frame) -> V:  # implemented by Interp
        raise NotImplementedError

    def note_field(self, type_: str, field: str, v: V) -> None:  # implemented by Interp
        raise NotImplementedError

    def lookup(self, name: str, fr: Frame) -> V:
        scope: Frame | None = fr
        while scope is not None:
            v = scope.vars.get(name)
            if v is not None:
                return v
            scope = scope.parent
        gkey = (fr.dir, name)
        if gkey in self.prog.gvars:
            return self.global_value(gkey)
        fkey = (fr.dir, "", name)
        if fkey in self.prog.funcs:
            return FuncRef(key=fkey, file=self.prog.funcs[fkey][0])
        imp = fr.imports(self).get(name)
        if imp is not None:
            return Pkg(imp, self.prog.import_dir(imp))
        return Unk(name)

    def global_value(self, gkey: tuple[str, str]) -> V:
        v = self._gvals.get(gkey)
        if v is not None:
            return v
        path, entry = self.prog.gvars[gkey]
        self._gvals[gkey] = Unk(gkey[1])
        gf = Frame(path, ("global", path))
        v = self.eval(entry[1], gf) if entry[1] is not None else self.typed(entry[2] or "", path)
        if isinstance(v, Tup):
            v = v.items[0]
        if self.probe:  # calls are not followed while probing: do not keep a degraded value
            del self._gvals[gkey]
        else:
            self._gvals[gkey] = v
        return v

    def member(self, x: V, name: str, fr: Frame, e: list[Any]) -> V:
        if isinstance(x, Pkg):
            if x.dir is not None:
                gkey = (x.dir, name)
                if gkey in self.prog.gvars:
                    return self.global_value(gkey)
                fkey = (x.dir, "", name)
                if fkey in self.prog.funcs:
                    return FuncRef(key=fkey, file=self.prog.funcs[fkey][0])
                return _ctor_value(x, name) or Unk(name)
            spec = EXT_VARS.get((LIBS.get(normalize_import(x.path), ""), name))
            if spec is not None:
                kind, attrs = spec
                return lit(attrs["s"]) if kind == "str" else Obj(kind, **attrs)
            return _ctor_value(x, name) or Unk(f"{x.path.rsplit('/', 1)[-1]}.{name}")
        if isinstance(x, Struct):
            return self.struct_field(x, name)
        if isinstance(x, Obj):
            v = x.a.get(name)
            if isinstance(v, V):
                return v
            return Unk(f"{x.kind}.{name}")
        if isinstance(x, Tup) and x.items:
            return self.member(x.items[0], name, fr, e)
        if isinstance(x, Unk):
            keys = self.prog.methods_by_name.get(name, [])
            if len(keys) == 1 and name[:1].isupper():
                return FuncRef(key=keys[0], file=self.prog.funcs[keys[0]][0], recv=None)
            return Unk(f"{x.hint}.{name}")
        return Unk(name)

    def implementation(self, x: Struct, name: str, args: list[V]) -> tuple[str, str, str] | None:
        """The method an interface-typed value's ``name`` calls: the one method of that name in
        the service, else the one in the package declaring the interface (``publisher.
        EventPublisher`` built by a DI container -> ``publisher``'s own implementation)."""
        decl = self.prog.type_decl(x.dir, x.type)
        if decl is None or decl[1].get("k") != "interface" or not name[:1].isupper():
            return None
        wanted = decl[1].get("m") or [name]
        keys = [
            k
            for k in self.prog.methods_by_name.get(name, [])
            if self._fits(k, args)
            and all(self.prog.method_key(k[0], k[1], m) for m in wanted)
            and self.prog.funcs[k][0] not in self.foreign  # another service's types: only by name
        ]  # types with every method the interface declares
        if len(keys) > 1:
            keys = [k for k in keys if k[0] == x.dir]
        return keys[0] if len(keys) == 1 else None

    def _fits(self, key: tuple[str, str, str], args: list[V]) -> bool:  # implemented by Interp
        raise NotImplementedError

    def struct_field(self, x: Struct, name: str) -> V:
        v = x.fields.get(name)
        opted = self.option_values.get((x.type, name))
        if opted and isinstance(v, S) and v.sig() not in opted:
            # a constructor's default the service's functional options override
            values = list(opted.values())
            return values[0] if len(values) == 1 else Seq(values)
        if isinstance(v, Unk):
            # set from something unreadable (a constructor in a package the service's files do
            # not include): the field's declared library type still says what it is
            declared = self._declared(x, name)
            return declared if isinstance(declared, Obj) else v
        if v is not None:
            return v
        mk = self.prog.method_key(x.dir, x.type, name)
        if mk is not None:
            return FuncRef(key=mk, file=self.prog.funcs[mk][0], recv=x)
        decl = self.prog.type_decl(x.dir, x.type)
        if decl is None:
            return self._by_name(x, name)
        path, t = decl
        for fname, ftype, tag, _line in t["f"]:
            if fname == name:
                if x.known and x.fields and not tag and ftype == "string":
                    # ``Options{Router: r}`` leaves BaseURL out: the zero value, not a placeholder
                    x.fields[name] = lit("")
                    return x.fields[name]
                v = self._section(x, fname, tag, ftype, path) or self._tagged(tag, x.prop, fname)
                v = v or self._noted(x.type, name) or self.typed(ftype, path)
                if isinstance(v, Unk):
                    v = Unk(f"{x.type}.{name}")
                x.fields[name] = v
                return v
        for fname, ftype, _tag, _line in t["f"]:
            if not fname:  # embedded struct: promote its fields and methods
                inner = self.typed(ftype, path)
                if isinstance(inner, Struct) and inner.type != x.type:
                    got = self.struct_field(inner, name)
                    if not isinstance(got, Unk):
                        return got
        return self._by_name(x, name)

    def _declared(self, x: Struct, name: str) -> V | None:
        decl = self.prog.type_decl(x.dir, x.type)
        if decl is None:
            return None
        path, t = decl
        ftype = next((ft for fname, ft, _tag, _line in t["f"] if fname == name), None)
        return self.typed(ftype, path) if ftype else None

    def _by_name(self, x: Struct, name: str) -> V:
        """A field the declarations do not show: inside a config section, the key of its name."""
        if x.prop and name[:1].isupper():
            x.fields[name] = actions.prop_value(self.prop_defaults, x.prop + name)
            return x.fields[name]
        return Unk(f"{x.type}.{name}")

    def _tagged(self, tag: str, prefix: str = "", fname: str = "") -> V | None:
        """An ``env:`` or config-key tagged field; inside a config section (``prefix``) an untagged
        field is read under its own name, as viper does."""
        if not tag:
            return actions.prop_value(self.prop_defaults, prefix + fname) if prefix and fname else None
        tags = dict(_TAG.findall(tag))
        for t in ENV_TAGS:
            if tags.get(t):
                name = tags[t].split(",")[0]
                default = next((tags[d] for d in ENV_DEFAULT_TAGS if d in tags), None)
                return actions.env_value(name, default)
        key = _prop_key(tags)
        if key:
            return actions.prop_value(self.prop_defaults, prefix + key)
        return None

    def _section(self, x: Struct, fname: str, tag: str, ftype: str, path: str) -> Struct | None:
        """A struct-typed field of a config struct: a nested section whose fields are read under
        the key path of the tags above it (``cfg.Kafka.Topic`` -> property ``kafka.topic``)."""
        key = _prop_key(dict(_TAG.findall(tag))) if tag else ""
        if not key and x.prop and fname:
            key = fname
        if not key:
            return None
        inner = self.typed(ftype, path)
        if not isinstance(inner, Struct):
            t = ftype.strip().lstrip("*&").strip()
            if "." not in t or t.startswith(("[", "map[", "func", "chan")) or t in _SCALAR_TYPES:
                return None
            # a section typed in a package this service's files do not include (a shared pkg/):
            # its fields are read by name, which viper matches to the keys ignoring case
            inner = Struct(t, known=False)  # qualified: never mistaken for one of the service's types
        inner.prop = x.prop + key + "."
        return inner

    def _noted(self, type_: str, field: str) -> V | None:
        """A field's value read on an instance the values do not follow: the one value the code
        ever gives it, or the values functional options set (over the constructor's default)."""
        opted = self.option_values.get((type_, field))
        if opted:
            values = list(opted.values())
            return values[0] if len(values) == 1 else Seq(values)
        seen = self.field_values.get((type_, field))
        if seen and len(seen) == 1:
            return next(iter(seen.values()))
        return None

    def zero(self, typ: str, path: str) -> V:
        """The value of ``var x T`` or ``new(T)``: for an own struct, an instance like ``&T{}``."""
        v = self.typed(typ, path)
        if isinstance(v, Struct):
            v.known = True
        return v

    def typed(self, typ: str, path: str) -> V:
        """A placeholder value for a declared type: library object, own struct, or unknown."""
        t = typ.strip().lstrip("*&").strip()
        if not t or t.startswith(("[", "map[", "func", "chan", "<-", "(", "interface", "struct")):
            return Unk(t or "?")
        t = t.split("[", 1)[0]
        if "." in t:
            alias, name = t.split(".", 1)
            imp = self.prog.files[path]["imports"].get(alias) if path in self.prog.files else None
            if imp is None:
                return Unk(t)
            d = self.prog.import_dir(imp)
            if d is not None:
                return Struct(name, dir_=d, known=False) if (d, name) in self.prog.types else Unk(t)
            lib = LIBS.get(normalize_import(imp), "")
            spec = TYPES.get((lib, name))
            if spec is not None:
                return actions.new_obj(spec[0], dict(spec[1]), unbound=True)
            # a generated client is an interface, never used through a pointer (gapic clients are)
            if name.endswith("Client") and len(name) > 6 and not lib and not typ.strip().startswith("*"):
                return Obj("grpc_client", service=name[:-6], addr=None)
            return Unk(t)
        d = posixpath.dirname(path)
        if (d, t) in self.prog.types:
            return Struct(t, dir_=d, known=False)
        return Unk(t)

    def composite(self, e: list[Any], fr: Frame) -> V:
        typ: str = e[1]
        elems: list[Any] = e[2]
        t = typ.lstrip("*&")
        keyed = bool(elems) and elems[0][0] is not None
        if t.startswith("map[") or (not t and keyed):
            return Obj("comp", **{k: self.eval(v, fr) for k, v in elems if k})
        if not t or t.startswith("["):
            return Seq([self.eval(v, fr) for _k, v in elems])
        fields = {k: self.eval(v, fr) for k, v in elems if k}
        base = t.split("[", 1)[0]
        if "." in base:
            alias, name = base.split(".", 1)
            imp = fr.imports(self).get(alias)
            d = self.prog.import_dir(imp) if imp else None
            if d is not None:
                return self._own_struct(name, d, fields or self._positional(name, d, elems, fr))
            lib = LIBS.get(normalize_import(imp), "") if imp else ""
            spec = COMPOSITES.get((lib, name))
            if spec is not None:
                obj = Obj("comp", type=name, **fields)
                return actions.ACTIONS[spec[0]](self, fr, obj, [], e, spec[1])
            tspec = TYPES.get((lib, name))
            if tspec is not None:
                return actions.new_obj(tspec[0], dict(tspec[1]))
            return Obj("comp", type=name, **fields)
        d = self.prog.type_dir(fr.dir, base)
        if d is not None:
            return self._own_struct(base, d, fields or self._positional(base, d, elems, fr))
        return Obj("comp", type=base, **fields)

    def _positional(self, name: str, d: str, elems: list[Any], fr: Frame) -> dict[str, V]:
        """``T{a, b}``: the values of an unkeyed literal, by the order T declares its fields."""
        decl = self.prog.types.get((d, name))
        if not elems or elems[0][0] is not None or decl is None:
            return {}
        declared = [f[0] or f[1].lstrip("*").rsplit(".", 1)[-1] for f in decl[1].get("f") or ()]
        if len(declared) != len(elems):
            return {}
        return {k: self.eval(v, fr) for k, (_key, v) in zip(declared, elems)}

    def _own_struct(self, name: str, d: str, fields: dict[str, V]) -> Struct:
        for k, v in fields.items():
            self.note_field(name, k, v)
        return Struct(name, fields, dir_=d)
