"""Abstract values the Rust interpreter computes: strings as ``Expr``, the routing values of
axum, actix-web, rocket and warp (a route table, a method router, a warp filter), and tonic clients."""

from __future__ import annotations

import re
from typing import Any

from attrs import define, field

from orbitkb.analysis.facts import Expr, Lit, Part, Unknown
from orbitkb.analysis.rust.program import Fn

_PARAM = re.compile(r"<([A-Za-z_]\w*)(?:\.\.)?>|:([A-Za-z_]\w*)|\*([A-Za-z_]\w*)|\{([A-Za-z_]\w*)(?::[^}]*)?\}")


@define(eq=False)
class Route:
    method: str
    path: str
    handler: str
    file: str
    line: int


@define(eq=False)
class Routes:
    """A router / app / scope / resource: routes relative to ``prefix``."""

    items: list[Route] = field(factory=list)
    prefix: str = ""
    consumed: bool = False

    def absorb(self, other: Routes, prefix: str = "") -> None:
        other.consumed = True
        for r in other.items:
            self.items.append(Route(r.method, join(prefix, other.prefix, r.path), r.handler, r.file, r.line))


@define(eq=False)
class Methods:
    """A method router: ``get(h).post(h2)`` (axum) or ``web::get().to(h)`` (actix-web)."""

    items: list[tuple[str, str | None, str, int]] = field(factory=list)  # (method, handler, file, line)


@define(eq=False)
class Filter:
    """warp filters: alternatives of (path segments, method, handler)."""

    items: list[tuple[tuple[str, ...], str | None, str | None, str, int]] = field(factory=list)
    consumed: bool = False


@define(eq=False)
class GrpcClient:
    """A tonic client (``XClient::connect(url)``): its rpcs are called as its methods
    (``client.get_stock(req)``); the address is folded where it was built (``frame``)."""

    service: str
    args: list[Any]
    frame: Any


@define(eq=False)
class FnRef:
    fns: list[Fn]


def join(*parts: str) -> str:
    segments = [s for p in parts for s in p.split("/") if s]
    return normalize_params("/" + "/".join(segments))


def normalize_params(path: str) -> str:
    """Every framework's parameter spelling as ``{name}``: rocket ``<id>``, axum ``:id``/``*rest``, actix ``{id:\\d+}``."""
    return _PARAM.sub(lambda m: "{" + next(g for g in m.groups() if g) + "}", path)


def concat(*exprs: Expr) -> Expr:
    parts: list[Part] = []
    for e in exprs:
        for p in e.parts:
            if isinstance(p, Lit) and parts and isinstance(parts[-1], Lit):
                parts[-1] = Lit(parts[-1].text + p.text)
            elif not (isinstance(p, Lit) and not p.text):
                parts.append(p)
    return Expr(tuple(parts))


def unknown(hint: Any) -> Expr:
    return Expr((Unknown(str(hint)[:60]),))
