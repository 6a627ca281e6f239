"""Functional routes: WebFlux/WebMvc.fn ``RouterFunctions.route()`` builders and the Kotlin router DSL.

Prefixes come from enclosing ``nest(path("/x"), ..)`` / ``.path("/x", b -> ..)`` /
``"/x".nest { .. }``; handlers from method references (``handler::list`` -> ``HandlerType.list``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.jvm.evaluate import Parts, concat, evaluate
from orbitkb.analysis.jvm.syntax import Call, E, Lam, MRef, Name, Str, children
from orbitkb.analysis.jvm.tables import ROUTER_VERBS

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.walking import Walker


def extract(statements: list[E], w: Walker) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for stmt in statements:
        _visit(stmt, [], w, out)
    return out


def _path_of(e: E | None, w: Walker) -> Parts | None:
    """The path inside a predicate: "/x", path("/x"), GET("/x"), path("/x").and(accept(..))."""
    if e is None:
        return None
    if isinstance(e, Str):
        return evaluate(e, w.scope)
    if isinstance(e, Call):
        if e.name in ("path", *ROUTER_VERBS) and e.args:
            return _path_of(e.args[0], w)
        if e.name in ("and", "andThen") and e.recv is not None:
            return _path_of(e.recv, w) or (_path_of(e.args[0], w) if e.args else None)
    evaluated = evaluate(e, w.scope)
    return evaluated if evaluated and evaluated[0][0] not in ("unknown", "call") else None


def _handler(e: E, w: Walker) -> str | None:
    if isinstance(e, MRef):
        if isinstance(e.obj, Name):
            if e.obj.id == "this":
                return f"{w.ctx.cls}.{e.name}"
            owner = w.recv_type(e.obj) if not e.obj.id[:1].isupper() else e.obj.id
            return f"{owner or e.obj.id}.{e.name}"
        return e.name
    return None


def _visit(e: E, prefix: Parts, w: Walker, out: list[dict[str, Any]]) -> None:
    if isinstance(e, Call):
        name, args = e.name, e.args
        if (
            name in ("nest", "path", "andNest")
            and args
            and any(isinstance(a, (Lam, Call)) for a in args[1:] or args)
        ):
            if isinstance(e.recv, (Str, Call)) and name == "nest" and all(isinstance(a, Lam) for a in args):
                # Kotlin DSL: "/api".nest { } / path("/api").nest { }
                inner = _path_of(e.recv, w)
                if isinstance(e.recv, Call) and e.recv.name != "path":
                    _visit(e.recv, prefix, w, out)
                for a in args:
                    _visit(a, concat(prefix, inner or []), w, out)
                return
            inner = _path_of(args[0], w)
            if inner is not None and len(args) >= 2:
                if e.recv is not None:
                    _visit(e.recv, prefix, w, out)
                for a in args[1:]:
                    _visit(a, concat(prefix, inner), w, out)
                return
        if name in ROUTER_VERBS and args:
            path = _path_of(args[0], w)
            handler_arg = args[-1] if len(args) >= 2 else None
            if path is not None and handler_arg is not None:
                _emit(out, e, name, concat(prefix, path), _handler(handler_arg, w))
                if e.recv is not None:
                    _visit(e.recv, prefix, w, out)
                return
        if name in ("route", "andRoute") and len(args) >= 2:
            verb, path = _predicate(args[0], w)
            if verb is not None and path is not None:
                _emit(out, e, verb, concat(prefix, path), _handler(args[1], w))
                if e.recv is not None:
                    _visit(e.recv, prefix, w, out)
                return
    for child in children(e):
        _visit(child, prefix, w, out)


def _predicate(e: E, w: Walker) -> tuple[str | None, Parts | None]:
    """``GET("/x")`` / ``RequestPredicates.GET("/x").and(accept(JSON))`` -> (GET, "/x")."""
    cur: E | None = e
    while isinstance(cur, Call):
        if cur.name in ROUTER_VERBS and cur.args:
            return cur.name, _path_of(cur.args[0], w)
        cur = cur.recv if cur.recv is not None else (cur.args[0] if cur.args else None)
    return None, None


def _emit(out: list[dict[str, Any]], call: Call, verb: str, path: Parts, handler: str | None) -> None:
    out.append(
        {"k": "route", "method": verb, "path": path, "handler": handler, "line": call.nline, "end": call.end}
    )
