"""One file's syntax -> the JSON-able parse result cached per content hash.

Per class: annotations with folded arguments, supertypes, fields (with @Value / initializer /
constructor-assigned values and client addresses), methods with their outbound sites, local
invocations (for one-hop attribution and wrappers) and functional routes.
"""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.jvm.body import analyze, simple_type, value_annotation
from orbitkb.analysis.jvm.evaluate import Parts, Scope, dotted, evaluate_list
from orbitkb.analysis.jvm.http_sites import infer_type
from orbitkb.analysis.jvm.syntax import (
    Ann,
    Arr,
    Assign,
    Call,
    ClassDecl,
    E,
    Field,
    FileSyntax,
    Method,
    Name,
    walk,
)
from orbitkb.analysis.jvm.tables import APP_ANNOTATIONS, CONFIG_PROPERTIES
from orbitkb.analysis.jvm.walking import BodyContext

#: declared return types whose value may be an address or a name ("" : a Kotlin inferred type)
_TEXT_TYPES = {"", "String", "URI", "URL", "CharSequence", "HttpUrl"}


def build(fs: FileSyntax, stem: str) -> dict[str, Any]:
    classes: list[dict[str, Any]] = []
    for cls in fs.classes:
        _flatten(cls, None, fs, classes)
    if fs.functions or fs.properties:
        pseudo = ClassDecl(f"{stem}Kt", "file", 1, 1)
        pseudo.methods = fs.functions
        pseudo.fields = fs.properties
        for f in pseudo.fields:
            f.mods.add("static")
        lines = [m.line for m in fs.functions] + [f.line for f in fs.properties]
        ends = [m.end for m in fs.functions] + [f.line for f in fs.properties]
        pseudo.line, pseudo.end = min(lines), max(ends)
        classes.append(_class(pseudo, None, fs))
    out: dict[str, Any] = {"lang": fs.lang, "package": fs.package, "imports": fs.imports, "classes": classes}
    if _is_entrypoint(fs):
        out["entrypoint"] = True
    if fs.warnings:
        out["warnings"] = fs.warnings
    return out


def _is_entrypoint(fs: FileSyntax) -> bool:
    def main(m: Method) -> bool:
        return m.name == "main" and (m.body is not None)

    if any(main(m) for m in fs.functions):
        return True
    stack = list(fs.classes)
    while stack:
        cls = stack.pop()
        if any(a.name in APP_ANNOTATIONS for a in cls.anns):
            return True
        if any(
            main(m) and ("static" in m.mods or "JvmStatic" in {a.name for a in m.anns}) for m in cls.methods
        ):
            return True
        stack.extend(cls.inner)
    return False


def _flatten(cls: ClassDecl, outer: str | None, fs: FileSyntax, out: list[dict[str, Any]]) -> None:
    out.append(_class(cls, outer, fs))
    qname = f"{outer}.{cls.name}" if outer else cls.name
    for inner in cls.inner:
        _flatten(inner, qname, fs, out)


def annotation_json(ann: Ann) -> list[Any]:
    return [ann.name, {k: _ann_values(v) for k, v in ann.args.items()}, ann.line]


def _ann_values(e: E) -> list[Any]:
    items = e.items if isinstance(e, Arr) else [e]
    out: list[Any] = []
    for item in items:
        if isinstance(item, Call) and item.recv is None and item.name[:1].isupper():
            args: dict[str, Any] = {k: _ann_values(v) for k, v in item.named.items()}
            if item.args:
                args["value"] = [v for a in item.args for v in _ann_values(a)]
            out.append({"ann": item.name, "args": args})
        else:
            out.extend(evaluate_list(item, Scope(), ann=True))
    return out


def _class(cls: ClassDecl, outer: str | None, fs: FileSyntax) -> dict[str, Any]:
    field_types = {f.name: simple_type(f.type) or infer_type(f.init) for f in cls.fields}
    ctx = BodyContext(cls.name, field_types, fs.imports, fs.package)
    ctors = [m for m in cls.methods if m.name == "<init>"]
    # field initializers and constructor bodies run as one "<init>" walk: values and client addresses
    init_body: list[E] = [
        Assign(Field(Name("this"), f.name), f.init) for f in cls.fields if f.init is not None
    ]
    ctor_params = {p.name: p.type for m in ctors for p in m.params}
    ctor_values = {p.name: v for m in ctors for p in m.params if (v := value_annotation(p.anns)) is not None}
    for m in ctors:
        init_body.extend(m.body or [])
    init = analyze(init_body, ctx, ctor_params, ctor_values)
    bound = _bound_prefix(cls)
    fields = []
    for f in cls.fields:
        value = value_annotation(f.anns)
        if value is None and bound is not None and "static" not in f.mods:
            value = _bound(bound, f.name, init.assigned.get(f.name))
        target = None
        if f.name in init.assigned:
            assigned, target = init.assigned[f.name]
            if value is None and not _opaque(assigned) and (assigned or _constant(f.mods)):
                value = assigned
        if f.name in ctor_values and "ctor" in f.mods:
            value = ctor_values[f.name]
        if value is None and f.name in init.assigned:
            value = _from_ctor_param(ctors, init.assigned[f.name][0])
        elif value is None and "ctor" in f.mods:  # Kotlin ``class C(private val base: String)``
            value = _from_ctor_param(ctors, [["param", f.name]])
        if target is not None:
            ctx.targets[f.name] = target
        fields.append(
            {
                "name": f.name,
                "type": f.type,
                "anns": [annotation_json(a) for a in f.anns],
                "value": value,
                "target": target,
                "mods": sorted(f.mods),
                "line": f.line,
            }
        )
    methods = []
    if init.sites or init.invokes:
        line = min((m.line for m in ctors), default=cls.line)
        methods.append(_method_json(Method("<init>", [], [], "", set(), None, line, cls.end, None), init))
    for m in cls.methods:
        if m.name == "<init>":
            continue
        params = {p.name: p.type for p in m.params}
        values = {p.name: v for p in m.params if (v := value_annotation(p.anns)) is not None}
        is_bean = any(a.name == "Bean" for a in m.anns)
        walker = analyze(m.body or [], ctx, params, values, want_target=is_bean) if m.body else None
        methods.append(_method_json(m, walker))
    return {
        "name": cls.name,
        "qname": f"{outer}.{cls.name}" if outer else cls.name,
        "kind": cls.kind,
        "line": cls.line,
        "decl": cls.decl,
        "end": cls.end,
        "doc": cls.doc,
        "anns": [annotation_json(a) for a in cls.anns],
        "supers": [[n, a] for n, a in cls.supers],
        "mods": sorted(cls.mods),
        "fields": fields,
        "methods": methods,
        # annotated constructors (``@CommandHandler Order(PlaceOrder c)``): their bodies are in ``<init>``
        "ctors": [
            {
                "anns": [annotation_json(a) for a in m.anns],
                "params": [[p.name, p.type, [annotation_json(a) for a in p.anns]] for p in m.params],
                "line": m.line,
                "end": m.end,
            }
            for m in ctors
            if m.anns
        ],
    }


def _from_ctor_param(ctors: list[Method], assigned: Parts) -> Parts | None:
    """``this.baseUrl = baseUrl`` in a constructor: the field holds what ``new X(...)`` passes at
    that position (``["ctor", index, name]``, filled where the object is made)."""
    if len(assigned) != 1 or assigned[0][0] != "param" or len(ctors) != 1:
        return None
    names = [p.name for p in ctors[0].params]
    name = assigned[0][1]
    return [["ctor", names.index(name), name]] if name in names else None


def _bound_prefix(cls: ClassDecl) -> str | None:
    """``@ConfigurationProperties(prefix = "orders.api")``: the prefix its fields are bound under."""
    ann = next((a for a in cls.anns if a.name in CONFIG_PROPERTIES), None)
    if ann is None:
        return None
    for attr in ("prefix", "value"):
        if attr in ann.args:
            values = evaluate_list(ann.args[attr], Scope(), ann=True)
            text = "".join(p[1] for p in values[0] if p[0] == "lit") if values else ""
            return text.strip(".")
    return ""


def _bound(prefix: str, name: str, assigned: tuple[Parts, Parts | None] | None) -> Parts:
    """A bound field's value: its property (relaxed, kebab-case), defaulting to its initializer."""
    kebab = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "-", name).lower()
    key = f"{prefix}.{kebab}" if prefix else kebab
    initial = assigned[0] if assigned is not None else None
    default = "".join(p[1] for p in initial) if initial and all(p[0] == "lit" for p in initial) else None
    return [["prop", key, default]]


def _opaque(value: Parts) -> bool:
    # an empty list is the empty string ("" folds to no parts): a real value, not an opaque one
    return bool(value) and all(p[0] in ("unknown", "param") for p in value)


def _constant(mods: set[str]) -> bool:
    """Fields whose "" initializer is their value for good (a mutable one is usually set later)."""
    return bool(mods & {"final", "static", "const"})


def _method_json(m: Method, walker: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": m.name,
        "line": m.line,
        "end": m.end,
        "doc": m.doc,
        "anns": [annotation_json(a) for a in m.anns],
        "params": [[p.name, p.type, [annotation_json(a) for a in p.anns]] for p in m.params],
        "ret": m.ret,
        "mods": sorted(m.mods),
    }
    if walker is not None:
        if walker.sites:
            out["sites"] = walker.sites
        if walker.invokes:
            out["invokes"] = walker.invokes
        if walker.first_target is not None:
            out["target"] = walker.first_target
        returned = _returned(m, walker.returns)
        if returned is not None:
            out["returns"] = returned
    helper = _env_helper(m)
    if helper is not None:
        out["env_helper"] = helper
    return out


def _env_helper(m: Method) -> list[int | None] | None:
    """A project's own environment reader, ``getenv(String key, String def)`` calling
    ``System.getenv(key)``: [index of the name parameter, index of the default parameter or None],
    so ``getenv("CART_HOST", "cart")`` folds to that variable with that default where it is called."""
    names = [p.name for p in m.params]
    if simple_type(m.ret) not in _TEXT_TYPES or not 1 <= len(names) <= 2:
        return None
    for node in (n for stmt in m.body or [] for n in walk(stmt)):
        if not (isinstance(node, Call) and node.name == "getenv" and node.recv is not None):
            continue
        first = node.args[0] if node.args else None
        if dotted(node.recv) == "System" and isinstance(first, Name) and first.id in names:
            key = names.index(first.id)
            others = [i for i, p in enumerate(m.params) if i != key and simple_type(p.type) in _TEXT_TYPES]
            return [key, others[0] if others else None]
    return None


def _returned(m: Method, returns: list[Parts]) -> Parts | None:
    """The value a text-typed method returns (its last ``return`` that folds to something)."""
    if simple_type(m.ret) not in _TEXT_TYPES:
        return None
    return next((v for v in reversed(returns) if v and not _opaque(v)), None)
