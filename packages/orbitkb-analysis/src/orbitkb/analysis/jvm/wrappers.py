"""Thin wrappers: a method that calls a client with one of its parameters in the URL (or topic)
is reported again at each of its call sites in the service, with the argument folded in
(client ``wrapper:<method>``); the wrapper's own site is kept only when nobody calls it."""

from __future__ import annotations

from typing import Any

from attrs import evolve

from orbitkb.analysis.facts import Expr, Part, RawCall, RawMessage, Unknown
from orbitkb.analysis.jvm.calls import target_hint
from orbitkb.analysis.jvm.reach import Reach, key
from orbitkb.analysis.jvm.resolve import CTOR_MARK, PARAM_MARK, ClassRef, ServiceIndex, merge


def _subst(expr: Expr, params: list[str], args: list[Expr], ctor_args: list[Expr] | None = None) -> Expr:
    parts: list[Part] = []
    for p in expr.parts:
        if isinstance(p, Unknown) and p.hint.startswith(PARAM_MARK):
            name = p.hint[len(PARAM_MARK) :]
            idx = params.index(name) if name in params else -1
            parts.extend(args[idx].parts if 0 <= idx < len(args) else (Unknown(name),))
        elif isinstance(p, Unknown) and p.hint.startswith(CTOR_MARK) and ctor_args is not None:
            index, _, name = p.hint[len(CTOR_MARK) :].partition(":")
            pos = int(index)
            parts.extend(ctor_args[pos].parts if pos < len(ctor_args) else (Unknown(name),))
        else:
            parts.append(p)
    return merge(parts)


def _clean(expr: Expr | None) -> Expr | None:
    """Placeholders nobody filled become unknowns named after the parameter or field."""
    if expr is None:
        return None
    parts = []
    for p in expr.parts:
        if isinstance(p, Unknown) and p.hint.startswith(PARAM_MARK):
            p = Unknown(p.hint[len(PARAM_MARK) :])
        elif isinstance(p, Unknown) and p.hint.startswith(CTOR_MARK):
            p = Unknown(p.hint[len(CTOR_MARK) :].partition(":")[2])
        parts.append(p)
    return Expr(tuple(parts))


def expand_wrappers(
    index: ServiceIndex, reach: Reach, calls: Any, msgs: Any
) -> tuple[list[RawCall], list[RawMessage]]:
    templates: dict[tuple[str, str, str], list[Any]] = {}
    for ref, method, item in [*calls.templates, *msgs.templates]:
        templates.setdefault(key(ref, method), []).append(item)
    used: set[int] = set()
    extra_calls: list[RawCall] = []
    extra_msgs: list[RawMessage] = []
    if templates:
        for ref in index.classes:
            for m in ref.data["methods"]:
                for owner, name, args, line, *made in m.get("invokes", ()):
                    for callee in reach.callees(ref, owner, name):
                        if callee is ref and name == m["name"]:
                            continue
                        items = templates.get(key(callee, name))
                        if not items:
                            continue
                        params = [p[0] for p in callee.methods[name][0]["params"]]
                        resolved = [index.resolve(a, ref) or Expr(()) for a in args]
                        ctor = [index.resolve(a, ref) or Expr(()) for a in made[0]] if made else None
                        handlers: list[str | None] = [*reach.handlers(ref, m["name"])] or [None]
                        for item in items:
                            used.add(id(item))
                            for h in handlers:
                                _expand(item, ref, name, line, (params, resolved, ctor), h, extra_calls, extra_msgs)
    out_calls = [evolve(c, url=_clean(c.url)) for c in calls.calls if not _is_used(c, calls.templates, used)]
    out_msgs = [
        evolve(m, channel=_clean(m.channel)) for m in msgs.messages if not _is_used(m, msgs.templates, used)
    ]
    return out_calls + extra_calls, out_msgs + extra_msgs


def _is_used(item: Any, templates: list[tuple[ClassRef, str, Any]], used: set[int]) -> bool:
    """A template's emitted copies (one per handler) are equal to it except for api_handler."""
    for _ref, _m, t in templates:
        if id(t) in used and evolve(item, api_handler=t.api_handler) == t:
            return True
    return False


def _expand(
    item: Any,
    ref: ClassRef,
    name: str,
    line: int,
    given: tuple[list[str], list[Expr], list[Expr] | None],
    handler: str | None,
    calls: list[RawCall],
    msgs: list[RawMessage],
) -> None:
    """``given``: the wrapper's parameter names, the arguments passed, the receiver's constructor
    arguments when the call site made it (``new CartClient(url).add(..)`` through a local)."""
    params, args, ctor_args = given
    common: dict[str, Any] = {"file": ref.path, "line": line, "end_line": line, "component": ref.name,
                              "api_handler": handler}
    if isinstance(item, RawCall):
        url = _subst(item.url, params, args, ctor_args) if item.url is not None else None
        calls.append(
            evolve(item, url=_clean(url), client=f"wrapper:{name}", target_hint=target_hint(url), **common)
        )
    else:
        channel = _subst(item.channel, params, args)
        msgs.append(evolve(item, channel=_clean(channel), client=f"wrapper:{name}", **common))
