"""REST data sources of a GraphQL server: ``class OrdersAPI extends RESTDataSource``.

The class names its downstream service once, in ``baseURL`` (a class field or an assignment in the
constructor), and its methods call ``this.get("orders/" + id)``, ``this.post("orders", { body })``:
each is an HTTP call to the base URL joined with the path (one ``/`` between them, as the library
resolves a relative path against the base).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .clients import client_call
from .signatures import INSTANCE_VERBS
from .values import fold, merge, resolve_binding

if TYPE_CHECKING:
    from .extractor import Extractor

#: packages whose ``RESTDataSource`` base class gives ``this.get/post/...`` and ``baseURL``
MODULES = frozenset({"@apollo/datasource-rest", "apollo-datasource-rest"})
BASE_CLASS = "RESTDataSource"
CLIENT = "RESTDataSource"
#: the data source's own verbs (``this.request`` is not one of them: it is not a public verb)
VERBS = frozenset({"get", "post", "put", "patch", "delete", "head"})


def on_this_call(ex: Extractor, node: Node, prop: str, args: list[Node]) -> bool:
    """`this.get(path)` inside a RESTDataSource subclass: a call to its `baseURL` + path."""
    if prop not in VERBS or not args or not _is_data_source(ex):
        return False
    field = resolve_binding("this.baseURL", ex.scope)
    base: list[Any] = list(field["v"]) if field is not None and field.get("k") == "val" else []
    last = base[-1] if base else None
    ends = last[1] if last and last[0] == "lit" else (last[2] if last and len(last) > 2 else None)
    if base and not (isinstance(ends, str) and ends.endswith("/")):
        base = [*base, ["lit", "/"]]  # a base written without its slash still joins with one
    count = len(ex.out["calls"])
    client_call(ex, node, CLIENT, INSTANCE_VERBS[prop], args[:1])
    if base and len(ex.out["calls"]) > count:
        path = fold(args[0], ex.scope)
        if path and path[0][0] == "lit":
            path = [["lit", path[0][1].lstrip("/")], *path[1:]]
        ex.out["calls"][-1]["url"] = merge(base + path)
    return True


def _is_data_source(ex: Extractor) -> bool:
    cls = ex.scope.current_class
    info = ex.out["classes"].get(cls) if cls else None
    parent = (info.get("extends") or "") if info else ""
    name = parent.removeprefix("extends").strip().split("<")[0].strip()
    if name.rsplit(".", 1)[-1] != BASE_CLASS:
        return False
    binding = ex.scope.lookup(name.split(".")[0])
    return binding is not None and binding.get("k") == "imp" and binding.get("spec") in MODULES
