"""The parsed C# files of one service, indexed for the linkers: types by name, constants by
``Type.Name``, invocations with their file, type and method, and value parts folded to ``Expr``."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from attrs import frozen

from orbitkb.analysis.facts import Env, Expr, Lit, Part, Prop, Unknown


@frozen
class TypeRef:
    file: str
    index: int
    data: Mapping[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["n"])

    def method(self, m: int) -> Mapping[str, Any] | None:
        methods = self.data["m"]
        return methods[m] if 0 <= m < len(methods) else None


@frozen
class Site:
    """One invocation or creation, where it is: file, enclosing type and method (or None)."""

    file: str
    data: Mapping[str, Any]
    owner: TypeRef | None
    method: Mapping[str, Any] | None

    @property
    def line(self) -> int:
        return int(self.data["l"])

    @property
    def handler(self) -> str | None:
        if self.owner is None:
            return None
        return f"{self.owner.name}.{self.method['n']}" if self.method is not None else self.owner.name

    def arg(self, i: int = 0, name: str | None = None) -> Mapping[str, Any] | None:
        """The argument labelled ``name`` when there is one, else the ``i``-th."""
        args = self.data.get("a") or []
        for a in args if name is not None else ():
            if a.get("nm") == name:
                return a  # type: ignore[no-any-return]
        return args[i] if i < len(args) else None


#: Service-provider lookups whose type argument is the value they return.
_DI_LOOKUPS = frozenset({"GetService", "GetRequiredService"})
#: Calls whose first argument names a configuration section.
_SECTION_READS = frozenset({"Bind", "GetSection", "BindConfiguration"})
#: A section key spelt as a type's own name: ``x.GetType().Name``, ``typeof(T).Name``, ``nameof(T)``.
_TYPE_NAMED = re.compile(r"(?:GetType\(\)|typeof\(\s*\w+\s*\))\.Name$|^nameof\(\s*\w+\s*\)$")


def _first_text(args: list[Mapping[str, Any]]) -> str:
    """The first argument as written, or the expression its value was folded from."""
    if not args:
        return ""
    parts = args[0].get("v") or []
    hints = [str(p[1]) for p in parts if p and p[0] in ("ref", "unknown") and len(p) > 1]
    return hints[0] if len(parts) == 1 and hints else str(args[0].get("x", ""))


def simple(type_text: str) -> str:
    """``Ns.Outer.Name<T>`` -> ``Name``; ``IFoo?`` -> ``IFoo``."""
    base = type_text.split("<", 1)[0].split("(", 1)[0].rstrip("?[] ")  # record bases carry arguments
    return base.rsplit(".", 1)[-1]


def generic_args(type_text: str) -> list[str]:
    if "<" not in type_text or not type_text.endswith(">"):
        return []
    inner = type_text[type_text.index("<") + 1 : -1]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "<"
        depth -= ch == ">"
        cur += ch
    return [*out, cur.strip()] if cur.strip() else out


class ServiceIndex:
    def __init__(self, parsed: Mapping[str, Mapping[str, Any]]) -> None:
        self.files = {p: d for p, d in sorted(parsed.items()) if isinstance(d, Mapping) and "types" in d}
        #: Razor page view -> its ``@page`` route template ("" when it has none)
        self.pages = {
            p: str(d["page"]) for p, d in sorted(parsed.items()) if isinstance(d, Mapping) and "page" in d
        }
        self.types: list[TypeRef] = []
        self.by_name: dict[str, list[TypeRef]] = {}
        self.consts: dict[str, list[list[Any]]] = {}
        self.short_consts: dict[str, list[list[list[Any]]]] = {}
        for path, data in self.files.items():
            for i, t in enumerate(data["types"]):
                ref = TypeRef(path, i, t)
                self.types.append(ref)
                self.by_name.setdefault(ref.name, []).append(ref)
            for owner, name, parts in data.get("consts") or ():
                self.consts.setdefault(f"{owner}.{name}", parts)
                self.short_consts.setdefault(name, []).append(parts)
        self.usings = {u for d in self.files.values() for u in d.get("usings") or ()}
        self._sites: dict[str, list[Site]] = {}
        self._returns: dict[str, str] | None = None  # read once, on the first bound-options lookup
        self._locals: dict[tuple[str, int, str], list[str]] | None = None
        self._binders: set[str] | None = None
        self._resolves: dict[tuple[str | None, str], str] | None = None
        self.sections = self._options_sections()

    def _helper(self, call: list[Any], owner: str | None, depth: int) -> list[list[Any]]:
        """A ``call`` part folded through the static URL helper it names, else ``unknown``."""
        callee, args = str(call[1]), call[2]
        holder, _, method = callee.rpartition(".")
        candidates = (
            self.by_name.get(holder.rsplit(".", 1)[-1], [])
            if holder
            else ([self.type(owner)] if owner else [])
        )
        for ref in candidates:
            if ref is None:
                continue
            for m in ref.data["m"]:
                if m["n"] == method and "ret" in m and len(m["ps"]) == len(args) and depth < 6:
                    given = [self.fold(a, owner, depth + 1) for a in args]  # the caller's names
                    filled = [
                        list(a) for part in m["ret"] for a in (given[part[1]] if part[0] == "arg" else [part])
                    ]
                    return self.fold(filled, ref.name, depth + 1)  # the helper's own constants
        return [["unknown", str(call[3]) if len(call) > 3 else callee]]

    def _options_sections(self) -> dict[str, str]:
        """Options class -> the configuration section it is bound to (``Configure<T>(config.GetSection("x"))``,
        ``AddOptions<T>().Bind(…)``/``BindConfiguration("x")``; ``""`` for the root)."""
        out: dict[str, str] = {}
        for site in self.sites():
            d = site.data
            name, args = d.get("n"), d.get("a") or []
            generic = d.get("g") or []
            if name == "Configure" and len(generic) == 1 and args:
                target = simple(generic[0])
            elif name in ("Get", "GetValue") and len(generic) == 1 and "ri" in d:
                section = self.invocation(site.file, d["ri"])  # config.GetSection("x").Get<T>()
                sargs = (section or {}).get("a") or []
                key = sargs[0].get("v") if section and section.get("n") == "GetSection" and sargs else None
                if key and len(key) == 1 and key[0][0] == "lit":
                    out.setdefault(simple(generic[0]), str(key[0][1]))
                continue
            elif name == "Bind" and args and (bound := self._bound_instance(site.file, d, args)) is not None:
                out.setdefault(*bound)  # config.GetSection("Bus").Bind(bus) / config.Bind("Bus", bus)
                continue
            elif name in ("Bind", "BindConfiguration") and "ri" in d and args:
                opts = self.invocation(site.file, d["ri"])
                if opts is None or opts.get("n") != "AddOptions" or not opts.get("g"):
                    continue
                target = simple(opts["g"][0])
            else:
                continue
            parts = args[0].get("v") or []
            if name == "BindConfiguration" and parts and parts[0][0] == "lit":
                out.setdefault(target, str(parts[0][1]))
            elif len(parts) == 1 and parts[0][0] == "prop":
                out.setdefault(target, str(parts[0][1]))
            elif (key := self._const_section(site)) is not None:
                out.setdefault(target, key)  # GetSection(BusOptions.SectionName): a constant of another file
            elif args[0].get("x", "").rsplit(".", 1)[-1].lower().endswith("configuration"):
                out.setdefault(target, "")
        for site in self.sites():  # GetSettings<Bus>() of a helper binding the section named like its type
            generic = site.data.get("g") or []
            if len(generic) == 1 and site.data.get("n") in self._type_named_binders():
                out.setdefault(simple(generic[0]), simple(generic[0]))
        return out

    def _const_section(self, configure: Site) -> str | None:
        """The section ``Configure<T>(config.GetSection(Options.SectionName))`` binds when the key is a
        string constant (declared in any file of the service): the ``GetSection`` call written inside
        the ``Configure`` call, its argument folded through the constants; else None."""
        lo, hi = configure.data.get("l", 0), configure.data.get("e", 0)
        for site in self.sites():
            d = site.data
            if site.file != configure.file or d.get("n") != "GetSection" or not lo <= d.get("l", -1) <= hi:
                continue
            arg = (d.get("a") or [{}])[0].get("v") or []
            if len(arg) != 1 or arg[0][0] != "ref":
                continue
            name = str(arg[0][1])
            parts = self.consts.get(name) or self.consts.get(".".join(name.rsplit(".", 2)[-2:]))
            if parts is None and "." not in name:
                short = self.short_consts.get(name) or []
                parts = short[0] if len(short) == 1 else None
            if parts and len(parts) == 1 and parts[0][0] == "lit" and parts[0][1]:
                return str(parts[0][1])
        return None

    def _bound_instance(self, path: str, d: Mapping[str, Any], args: list[Any]) -> tuple[str, str] | None:
        """(settings class, section) of an instance bound in place: ``GetSection("Bus").Bind(bus)``
        or ``Bind("Bus", bus)``, the instance of a declared class, the section a literal."""
        if len(args) == 1 and "ri" in d:
            section = self.invocation(path, d["ri"])
            key = (section or {}).get("a") or []
            if not section or section.get("n") != "GetSection" or not key:
                return None
            parts, ty = key[0].get("v") or [], args[0].get("ty")
        elif len(args) == 2:
            parts, ty = args[0].get("v") or [], args[1].get("ty")
        else:
            return None
        if not ty or len(parts) != 1 or parts[0][0] != "lit" or self.type(simple(str(ty))) is None:
            return None
        return simple(str(ty)), str(parts[0][1])

    def _type_named_binders(self) -> set[str]:
        """Generic helpers that bind the section named like their type argument
        (``config.Bind(settings.GetType().Name, settings)``, ``GetSection(typeof(T).Name).Get<T>()``)."""
        if self._binders is None:
            self._binders = {
                str(site.method["n"])
                for site in self.sites()
                if site.method is not None and site.data.get("n") in _SECTION_READS
                and _TYPE_NAMED.search(_first_text(site.data.get("a") or []))
            }  # fmt: skip
        return self._binders

    def _returned(self, method: str) -> str | None:
        """The type a parameterless method of this service returns (``MessageBusVariables()``), when
        it is bound to a section; the first such method of that name."""
        if self._returns is None:
            self._returns = {}
            for ref in self.types:
                for m in ref.data["m"]:
                    if not m["ps"] and m.get("r") and simple(str(m["r"])) in self.sections:
                        self._returns.setdefault(str(m["n"]), str(m["r"]))
        return self._returns.get(method)

    def assigned(self, holder: TypeRef, local: str) -> list[str]:
        """The methods whose results a local of ``holder`` is assigned, in the order the code reads."""
        return self._assigned(holder, local)

    def _assigned(self, holder: TypeRef, local: str) -> list[str]:
        """The methods whose results a local of ``holder`` named ``local`` is assigned
        (``var o = settings.Options()``), in the order the code reads."""
        if self._locals is None:
            self._locals = {}
            for s in self.sites():
                v = s.data.get("v")
                if isinstance(v, str) and s.owner is not None:
                    self._locals.setdefault((s.owner.file, s.owner.index, v), []).append(str(s.data.get("n", "")))
        return self._locals.get((holder.file, holder.index, local), [])

    def _option(self, name: str, owner: str | None) -> list[list[Any]] | None:
        """``_settings.Value.Url`` / ``_urls.Orders`` where the field holds bound options -> a property
        (``_options.Exchange.Name`` -> ``Section:Exchange:Name``: nested options are nested sections);
        so does ``settings.Options().Url`` and a local assigned from such a call (``var o = settings.Options();
        o.Url``), where the method returns a class bound to a section."""
        segments = [s for s in name.removeprefix("this.").split(".") if s not in ("Value", "CurrentValue")]
        if len(segments) >= 2 and segments[-2].endswith("()"):
            segments = [segments[-2], segments[-1]]
        holder = self.type(owner) if owner else None
        if len(segments) >= 2 and (resolved := self._resolved_locals().get((owner, segments[0]))):
            section = self.sections.get(resolved)  # var urls = sp.GetService<UrlSettings>(); urls.Base
            if section is not None:
                key = ":".join(segments[1:])
                return [["prop", f"{section}:{key}" if section else key, None]]
        if holder is None or len(segments) < 2:
            return None
        members = [(str(f[0]), str(f[1])) for f in [*holder.data["f"], *holder.data["p"]]]
        members += [
            (str(pn), str(pt)) for m in holder.data["m"] if m["c"] for pt, pn in m["ps"]
        ]  # constructor parameters
        declared = next((ty for n, ty in members if n == segments[0]), None)
        if declared is None and segments[0].endswith("()"):
            declared = self._returned(segments[0][:-2])
        if declared is None:  # a local holding a call's result
            declared = next((r for n in self._assigned(holder, segments[0]) if (r := self._returned(n))), None)
        if declared is None:
            return None
        options = (
            generic_args(declared)[0]
            if simple(declared).startswith("IOptions") and generic_args(declared)
            else declared
        )
        section = self.sections.get(simple(options))
        if section is None:
            section = self._implementer_section(simple(options))
        if section is None:
            return None
        key = ":".join(segments[1:])  # a nested options class is a nested section: _o.Exchange.Name
        return [["prop", f"{section}:{key}" if section else key, None]]

    def _resolved_locals(self) -> dict[tuple[str | None, str], str]:
        """(enclosing type or None for top-level code, local) -> the type a DI lookup assigned it
        (``var urls = sp.GetRequiredService<UrlSettings>()``); a name given two types is left out."""
        if self._resolves is None:
            seen: dict[tuple[str | None, str], set[str]] = {}
            for site in self.sites():
                d = site.data
                if d.get("n") in _DI_LOOKUPS and isinstance(d.get("v"), str) and len(d.get("g") or []) == 1:
                    key = (site.owner.name if site.owner else None, str(d["v"]))
                    seen.setdefault(key, set()).add(simple(str(d["g"][0])))
            self._resolves = {k: next(iter(v)) for k, v in seen.items() if len(v) == 1}
        return self._resolves

    def _implementer_section(self, interface: str) -> str | None:
        """The section of the one bound options class implementing ``interface``: options bound
        as a class and injected as the interface it implements (``ISettings`` -> ``Settings``)."""
        found = {
            self.sections[ref.name]
            for ref in self.types
            if ref.name in self.sections and any(simple(b) == interface for b in ref.data["b"])
        }
        return found.pop() if len(found) == 1 else None

    def static_imports(self, path: str) -> set[str]:
        """The types a file imports the members of (``using static CatalogApi.Catalog;`` -> ``Catalog``),
        so that ``CatalogBase`` / ``CatalogClient`` are written without their outer class."""
        usings = self.files.get(path, {}).get("usings") or ()
        return {
            u.removeprefix("static ").strip().rsplit(".", 1)[-1] for u in usings if u.startswith("static ")
        }

    def type(self, name: str) -> TypeRef | None:
        found = self.by_name.get(simple(name))
        return found[0] if found else None

    def owner(self, path: str, t: int) -> TypeRef | None:
        types = self.files[path]["types"]
        return TypeRef(path, t, types[t]) if 0 <= t < len(types) else None

    def sites(self, key: str = "inv") -> Iterator[Site]:
        """Every invocation (``inv``), creation (``new``) or assignment (``assign``), read once."""
        if key not in self._sites:
            self._sites[key] = list(self._read_sites(key))
        return iter(self._sites[key])

    def _read_sites(self, key: str) -> Iterator[Site]:
        for path, data in self.files.items():
            types = data["types"]
            for entry in data.get(key) or ():
                t, m = entry.get("t", -1), entry.get("m", -1)
                owner = TypeRef(path, t, types[t]) if 0 <= t < len(types) else None
                method = owner.method(m) if owner is not None else None
                yield Site(path, entry, owner, method)

    def invocation(self, path: str, i: int) -> Mapping[str, Any] | None:
        inv = self.files[path].get("inv") or []
        return inv[i] if 0 <= i < len(inv) else None

    def uses(self, *namespaces: str) -> bool:
        return any(u == ns or u.startswith(ns + ".") for u in self.usings for ns in namespaces)

    # ------------------------------------------------------------------ values

    def fold(self, parts: Any, owner: str | None = None, depth: int = 0) -> list[list[Any]]:
        """Value parts with every ``ref`` replaced by its constant's parts, else ``unknown``."""
        out: list[list[Any]] = []
        for p in parts or ():
            if p[0] == "call":
                out.extend(self._helper(p, owner, depth))
                continue
            if p[0] == "arg":
                out.append(["unknown", f"arg{p[1]}"])
                continue
            if p[0] != "ref":
                out.append(p)
                continue
            name = str(p[1])
            found = self.consts.get(name) or (self.consts.get(f"{owner}.{name}") if owner else None)
            if found is None and "." in name:
                found = self.consts.get(".".join(name.rsplit(".", 2)[-2:]))
            if found is None and "." not in name:
                short = self.short_consts.get(name) or []
                found = short[0] if len(short) == 1 else None
            if found is None and "." in name:
                found = self._option(name, owner)
            if found is None and "." not in name and owner and depth < 6:
                found = self._constructed(owner, name, depth)
            if found is not None and depth < 6:
                out.extend(self.fold(found, owner, depth + 1))
            else:
                out.append(["unknown", name])
        return out

    def _constructed(self, owner: str, param: str, depth: int) -> list[list[Any]] | None:
        """A constructor parameter of ``owner`` (kept in a field: ``_exchange = exchange``) as the
        service creates the type: the argument at its position (or its name) in ``new Owner(...)``,
        folded where it is written, when every creation site that folds it agrees."""
        ref = self.type(owner)
        if ref is None:
            return None
        ctors = [[ps[1] for ps in m["ps"]] for m in ref.data["m"] if m.get("c") and param in (ps[1] for ps in m["ps"])]
        found: list[list[Any]] | None = None
        for site in self.sites("new"):
            if simple(str(site.data.get("ty", ""))) != ref.name:
                continue
            count = len(site.data.get("a") or [])
            positions = {names.index(param) for names in ctors if len(names) == count}  # the overload it calls
            if len(positions) != 1:
                continue
            arg = site.arg(positions.pop(), name=param)
            if arg is None or site.owner is None and not arg.get("v"):
                continue
            parts = self.fold(arg.get("v"), site.owner.name if site.owner else None, depth + 1)
            if not parts or any(p[0] == "unknown" for p in parts):
                continue
            if found is not None and parts != found:
                return None  # two creation sites, two values: no one channel
            found = parts
        return found

    def expr(self, parts: Any, owner: str | None = None) -> Expr | None:
        folded = self.fold(parts, owner)
        if not folded:
            return None
        out: list[Part] = []
        for p in folded:
            if p[0] == "lit":
                if out and isinstance(out[-1], Lit):
                    out[-1] = Lit(out[-1].text + p[1])
                else:
                    out.append(Lit(str(p[1])))
            elif p[0] == "env":
                out.append(Env(str(p[1]), p[2]))
            elif p[0] == "prop":
                out.append(Prop(str(p[1]), p[2]))
            else:
                out.append(Unknown(str(p[1])))
        return Expr(tuple(out))

    def literal(self, parts: Any, owner: str | None = None) -> str | None:
        folded = self.fold(parts, owner)
        if folded and all(p[0] == "lit" for p in folded):
            return "".join(str(p[1]) for p in folded)
        return None
