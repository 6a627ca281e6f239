"""The base URL a Nest ``HttpModule`` gives every ``HttpService`` request of the service.

``HttpModule.register({ baseURL: "http://stock:3005" })`` or ``HttpModule.registerAsync({ useFactory:
(config) => ({ baseURL: config.get("STOCK_URL") }) })`` sets axios' ``baseURL``: a request written
with a path only (``this.http.get(`/stock/${sku}`)``) goes to that base. The base is read at parse
time; the linker puts it in front of the service's HttpService calls that name no host, when the
service registers exactly one base (with several, which module a client belongs to is not read).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import evolve
from tree_sitter import Node

from ..facts import Expr, Lit, RawCall
from .signatures import BASE_URL_KEYS
from .syntax import object_pairs, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor
    from .resolve import Resolver

MODULE = "@nestjs/axios"
REGISTERS = frozenset({"HttpModule.register", "HttpModule.registerAsync"})
CLIENT = "HttpService"  # the client name HttpService calls are recorded with
KEY = "http_module_bases"


def on_register(ex: Extractor, where: tuple[str, str] | None, args: list[Node]) -> None:
    """`HttpModule.register(opts)` / `.registerAsync({ useFactory })`: note the `baseURL` it sets."""
    if where is None or where[0] != MODULE or where[1] not in REGISTERS or not args:
        return
    opts = object_pairs(unwrap(args[0]))
    if where[1].endswith("Async"):
        opts = object_pairs(_returned_object(opts.get("useFactory")))
    key = next((k for k in BASE_URL_KEYS if k in opts), None)
    base = fold(opts[key], ex.scope) if key is not None else []
    if base:
        ex.out.setdefault(KEY, []).append(base)


def _returned_object(factory: Node | None) -> Node | None:
    """The object a `useFactory` arrow or function returns (`() => ({...})`, `{ return {...} }`)."""
    factory = unwrap(factory)
    if factory is None:
        return None
    body = unwrap(factory.child_by_field_name("body"))
    if body is None or body.type == "object":
        return body
    for stmt in body.named_children if body.type == "statement_block" else ():
        if stmt.type == "return_statement" and stmt.named_children:
            found = unwrap(stmt.named_children[0])
            return found if found is not None and found.type == "object" else None
    return None


def with_module_base(
    calls: list[RawCall], files: dict[str, dict[str, Any]], resolver: Resolver
) -> list[RawCall]:
    """The HttpService calls that name no host, prefixed with the service's one registered base."""
    found = [(path, base) for path, data in sorted(files.items()) for base in data.get(KEY, ())]
    if len({repr(base) for _path, base in found}) != 1:
        return calls
    base = resolver.expr(*found[0])
    if base is None:
        return calls
    return [_prefixed(c, base) if c.client == CLIENT and _host_less(c.url) else c for c in calls]


def _host_less(url: Expr | None) -> bool:
    first = url.parts[0] if url is not None and url.parts else None
    return url is None or (isinstance(first, Lit) and first.text.startswith("/"))


def _prefixed(call: RawCall, base: Expr) -> RawCall:
    parts: list[Any] = list(base.parts)
    for part in call.url.parts if call.url is not None else ():
        last = parts[-1] if parts else None
        if isinstance(part, Lit) and isinstance(last, Lit):
            parts[-1] = Lit(last.text.rstrip("/") + part.text)
        elif isinstance(part, Lit) and str(getattr(last, "default", None) or "").endswith("/"):
            parts.append(Lit(part.text.lstrip("/")))  # `${URL:http://x/}` + `/path`: one slash
        else:
            parts.append(part)
    return evolve(call, url=Expr(tuple(parts)))
