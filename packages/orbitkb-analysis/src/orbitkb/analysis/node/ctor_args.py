"""Client classes given their address when made: `new OrdersProxy({ baseUrl: process.env.ORDERS_URL })`.

A class that keeps a constructor argument in a field (`constructor(options) { this.url =
`${options.baseUrl}/orders` }`, or `constructor(base) { this.base = base }`) and calls
`fetch(`${this.url}/${id}`)` leaves the address to whoever writes `new OrdersProxy(...)`. The
extractor marks such a value ``["ctor", index, key, text]`` (the argument at ``index``, its
property ``key`` when it is an options object) and records every `new X(...)` with its arguments;
before linking, each call of the class takes the value passed where the class is made. Only
values that mean the same in any file (literals, environment variables, configuration keys) are
carried over; several places making the class with different addresses give one call each.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import args_of, object_pairs, unwrap
from .values import fold, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor
    from .resolve import Resolver

TAG = "ctor"
_PORTABLE = frozenset({"lit", "env", "prop"})  # parts that mean the same in every file
_MAX_ARGS = 4


def is_constructor(fid: str | None) -> bool:
    return bool(fid) and str(fid).rsplit(".", 1)[-1] == "constructor"


def param_alias(binding: Mapping[str, Any]) -> bool:
    """A binding that only names a parameter (`this.base = base`)."""
    ref = binding.get("ref")
    return binding.get("k") == "alias" and isinstance(ref, list) and bool(ref) and ref[0] == "param"


def field_binding(ex: Extractor, right: Node) -> dict[str, Any] | None:
    """`this.base = base` (or `= options.base`) in a constructor: the field holds that argument."""
    parts = fold(right, ex.scope)
    if len(parts) == 1 and parts[0][0] in ("param", TAG):
        return {"k": "val", "v": parts}
    return None


def note_new(ex: Extractor, node: Node) -> None:
    """Record `new X(a, { key: b })`: what X is and each argument folded (an object by key)."""
    ctor = value_ref(node.child_by_field_name("constructor"), ex.scope)
    if ctor is None or ctor[0] == "glob" or (ctor[0] == "imp" and not _own(str(ctor[1]))):
        return  # a global or a package's class: not one of the service's clients
    args: list[dict[str, Any]] = []
    for arg in args_of(node)[:_MAX_ARGS]:
        inner = unwrap(arg)
        if inner is not None and inner.type == "object":
            args.append({"keys": {k: fold(v, ex.scope) for k, v in object_pairs(inner).items()}})
        else:
            args.append({"parts": fold(arg, ex.scope)})
    if args:
        ex.out.setdefault("news", []).append({"ctor": ctor, "args": args, "line": node.start_point[0] + 1})


def _own(spec: str) -> bool:
    """An import of the project's own code (relative, or through a common source alias)."""
    return spec.startswith((".", "@/", "~/", "src/"))


def _holds_ctor(parts: Any) -> bool:
    return isinstance(parts, list) and any(isinstance(p, list) and p and p[0] == TAG for p in parts)


def _value(arg: Mapping[str, Any] | None, key: str) -> list[Any] | None:
    if arg is None:
        return None
    value = arg.get("keys", {}).get(key) if key else arg.get("parts")
    whole = arg.get("parts") or []
    if key and len(whole) == 1 and whole[0][0] == "ref" and whole[0][1][0] == "deco" and not whole[0][1][2]:
        return [["ref", ["deco", whole[0][1][1], key, *whole[0][1][3:4]], None]]  # `new Api(fastify.config)`
    if not value or any(p[0] not in _PORTABLE for p in value):
        return None
    return [list(p) for p in value]


def _filled(parts: list[Any], args: list[dict[str, Any]]) -> list[Any] | None:
    out: list[Any] = []
    changed = False
    for p in parts:
        if isinstance(p, list) and p and p[0] == TAG:
            given = args[p[1]] if isinstance(p[1], int) and p[1] < len(args) else None  # not `({ url })`
            value = _value(given, p[2])
            if value is not None:
                out.extend(value)
                changed = True
                continue
        out.append(p)
    return out if changed else None


def fill(files: Mapping[str, dict[str, Any]], resolver: Resolver) -> dict[str, dict[str, Any]]:
    """The files with each call of a class that holds constructor arguments filled from the places
    the class is made (one call per distinct address); files without such calls are shared."""
    made: dict[tuple[str, str], list[list[dict[str, Any]]]] = {}
    for file in sorted(files):
        for new in files[file].get("news", ()):
            target = resolver.resolve(file, new["ctor"])
            if target is not None and target[0] == "cls":
                made.setdefault((str(target[1]), str(target[2])), []).append(new["args"])
    if not made:
        return dict(files)
    out = dict(files)
    for file, data in files.items():
        out[file] = data = _fill_invokes(file, data, made)
        calls = data.get("calls", [])
        if not any(_holds_ctor(c.get("url")) for c in calls):
            continue
        filled_calls: list[dict[str, Any]] = []
        for call in calls:
            sites = made.get((file, str(call.get("cls")))) if _holds_ctor(call.get("url")) else None
            urls = [u for args in sites or () if (u := _filled(call["url"], args)) is not None]
            distinct = [u for i, u in enumerate(urls) if u not in urls[:i]]
            filled_calls.extend([{**call, "url": u} for u in distinct] or [call])
        out[file] = {**data, "calls": filled_calls}
    return out


def _fill_invokes(
    file: str, data: dict[str, Any], made: Mapping[tuple[str, str], list[list[dict[str, Any]]]]
) -> dict[str, Any]:
    """A method handing a constructor argument to the class's own request helper
    (`this.fetch(`${this.base}/payments`)` with `this.base` from `config.apiUrl`): the argument is the
    value the class is made with, when every place making it agrees."""
    functions = data.get("functions", {})
    changed: dict[str, Any] = {}
    for fid, rec in functions.items():
        sites = made.get((file, str(rec.get("cls"))))
        if not sites or not any(_holds_ctor(a) for inv in rec.get("invokes", ()) for a in inv.get("args") or ()):
            continue
        invokes = []
        for inv in rec["invokes"]:
            args = []
            for arg in inv.get("args") or []:
                filled = [u for given in sites if _holds_ctor(arg) and (u := _filled(arg, given)) is not None]
                args.append(filled[0] if filled and all(u == filled[0] for u in filled) else arg)
            invokes.append({**inv, "args": args})
        changed[fid] = {**rec, "invokes": invokes}
    return {**data, "functions": {**functions, **changed}} if changed else data
