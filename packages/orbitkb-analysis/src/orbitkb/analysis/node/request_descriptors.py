"""Requests declared as data: `{ method: "GET", url: `${ordersApi}/orders/:id` }` inside a table of
named requests (redux-rest-easy resources, endpoint maps, API definition objects).

Front ends often list their backend requests as objects a library sends later, keyed by action:
`createResource("customers")({ retrieve: { method: "GET", url: `${backend}/customers` } })`. Such
an object is a call when it names an HTTP method and a URL that carries an address (a base taken
from a variable, the environment or configuration, or an absolute `http(s)://` literal) and it is
the value of a key, not a route: a route table entry has a handler and a bare path (`{ method,
url: "/x", handler }`, Fastify). Objects passed straight to a client (`axios({ method, url })`)
are the client recognisers' business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from .syntax import object_pairs, string_value, text
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

CLIENT = "request-descriptor"
_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_ROUTE_KEYS = frozenset({"handler", "preHandler", "controller", "action", "resolve"})
_ADDRESSED = ("ref", "env", "prop")


def _keys(node: Node) -> set[str]:
    return {
        text(c.child_by_field_name("key")).strip("'\"")
        for c in node.named_children
        if c.type == "pair" and c.child_by_field_name("key") is not None
    }


def on_object(ex: Extractor, node: Node) -> None:
    """An object literal that is the value of a key: a request when it declares one."""
    parent = node.parent
    if parent is None or parent.type != "pair" or parent.child_by_field_name("value") != node:
        return
    keys = _keys(node)
    if "url" not in keys or "method" not in keys or keys & _ROUTE_KEYS:
        return
    pairs = object_pairs(node)
    method = (string_value(pairs.get("method")) or "").upper()
    if method not in _METHODS:
        return
    url = fold(pairs["url"], ex.scope)
    first = url[0] if url else None
    if first is None:
        return
    absolute = first[0] == "lit" and str(first[1]).startswith(("http://", "https://"))
    if not absolute and first[0] not in _ADDRESSED:
        return
    record = {"kind": "http", "client": CLIENT, "url": url, "method": method, "grpc_service": None}
    ex.out["calls"].append({**record, **ex.where(node)})
