"""HTTP client calls: fetch/axios/got and client instances, with the verb and options they declare.

A verb or an options object that comes from a parameter of the enclosing function is recorded as
`method_param` / `options_param`: the function is a thin wrapper whose call sites supply it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from ..dapr.invoke import HEADER
from .signatures import HTTP_CLIENT_TYPES, HTTP_CLIENTS, INSTANCE_VERBS, METHOD_FIRST_CLIENTS
from .syntax import dotted, object_pairs, string_value, text, unwrap
from .values import FIELD_PARAM, field_slot, fold, merge, resolve_binding

if TYPE_CHECKING:
    from .extractor import Extractor

_NAMES = frozenset({"identifier", "shorthand_property_identifier"})
_CASE_METHODS = frozenset({"toUpperCase", "toLowerCase", "toLocaleUpperCase"})


def receiver_binding(ex: Extractor, receiver: Node) -> dict[str, Any] | None:
    name = dotted(receiver)
    return resolve_binding(name, ex.scope) if name else None


def verb_subscript(ex: Extractor, node: Node, fn: Node, args: list[Node]) -> bool:
    """`axios[method](url)` / `this.http[verb.toLowerCase()](path, body)`: a client call whose verb
    is a parameter (supplied at the wrapper's call sites) or a literal."""
    receiver = unwrap(fn.child_by_field_name("object"))
    index = fn.child_by_field_name("index")
    name = dotted(receiver)
    if receiver is None or index is None or name is None:
        return False
    where = ex.module_path(name)
    client = HTTP_CLIENTS[where][0] if where in HTTP_CLIENTS else None
    binding = receiver_binding(ex, receiver)
    if binding is not None and binding.get("k") == "obj" and binding.get("t") == "http_instance":
        client = binding.get("client") or "axios"
    elif binding is not None and binding.get("k") == "type" and binding.get("name") in HTTP_CLIENT_TYPES:
        client = HTTP_CLIENT_TYPES[binding["name"]]
    if client is None:
        return False
    verb = string_value(index)
    method = INSTANCE_VERBS.get(verb.lower()) if verb else None
    base = binding.get("base") if binding is not None else None
    count = len(ex.out["calls"])
    client_call(ex, node, client, method, args, base=base)
    if method is None and len(ex.out["calls"]) > count:
        call = ex.out["calls"][-1]
        call["method"] = None
        call.update(_method_param(ex, index))
    return True


def declared_method(arg: Node) -> str | None:
    pairs = object_pairs(arg)
    declared = string_value(pairs["method"]) if "method" in pairs else None
    return declared.upper() if declared else None


def call_options(ex: Extractor, args: list[Node]) -> dict[str, Any]:
    for arg in args:
        pairs = object_pairs(arg)
        if pairs:
            out: dict[str, Any] = {}
            if "method" in pairs:
                out["method"] = (string_value(pairs["method"]) or "").upper() or None
            return out
    return {}


def client_call(
    ex: Extractor,
    node: Node,
    client: str,
    method: str | None,
    args: list[Node],
    base: list[Any] | None = None,
) -> None:
    url_node: Node | None = None
    opts: dict[str, Node] = {}
    verb = (string_value(args[0]) or "").upper() if args and client in METHOD_FIRST_CLIENTS else ""
    if verb in INSTANCE_VERBS.values() and verb and len(args) >= 2:
        method, args = verb, args[1:]
    first = unwrap(args[0]) if args else None
    if first is not None and first.type == "identifier":  # `const options = { host }; http.request(options)`
        first = local_object(node, text(first)) or first
    if first is not None and first.type == "object":
        opts = object_pairs(first)
        url_node = opts.get("url") or opts.get("uri")
        base_node = opts.get("baseURL") or opts.get("baseUrl") or opts.get("prefixUrl")
        if base_node is not None:
            base = fold(base_node, ex.scope)
        elif url_node is None:
            base = _host_port_path(ex, client, opts)
    elif first is not None:
        url_node = first
        for arg in args[1:3]:
            pairs = object_pairs(arg)
            if "method" in pairs or "headers" in pairs or "body" in pairs:
                opts = pairs
                break
    carried: dict[str, Any] = {}
    if method is None:
        declared = string_value(opts["method"]) if "method" in opts else None
        method = declared.upper() if declared else ("GET" if "method" not in opts else None)
        if "method" in opts and not declared:
            carried = _method_param(ex, opts["method"])
        elif "method" not in opts:
            carried = _options_param(
                ex, args[1:3] if first is not None and first.type != "object" else args[:1]
            )
    url = fold(url_node, ex.scope) if url_node is not None else []
    if base:
        url = merge(list(base) + url)
    record = {"kind": "http", "client": client, "url": url or None, "method": method, "grpc_service": None}
    app_id = _sidecar_app_id(ex, opts.get("headers"))
    if app_id:
        record["app_id"] = app_id
    ex.out["calls"].append({**record, **carried, **ex.where(node)})


def local_object(node: Node, name: str) -> Node | None:
    """The object literal a variable is declared with, in a block around ``node`` before it
    (`var options = { host: ORDERS_HOST, port: 3000 }` a few lines above the request)."""
    scope: Node | None = node.parent
    while scope is not None:
        if scope.type in ("statement_block", "program"):
            found = None
            for stmt in scope.named_children:
                if stmt.start_byte >= node.start_byte:
                    break
                if stmt.type not in ("lexical_declaration", "variable_declaration"):
                    continue
                for decl in stmt.named_children:
                    if decl.type != "variable_declarator":
                        continue
                    value = unwrap(decl.child_by_field_name("value"))
                    if text(decl.child_by_field_name("name")) == name and value is not None:
                        found = value if value.type == "object" else None
            if found is not None:
                return found
        scope = scope.parent
    return None


def _host_port_path(ex: Extractor, client: str, opts: dict[str, Node]) -> list[Any] | None:
    """`http.request({ hostname: ORDERS_HOST, port: 3000, path: "/orders" })`: the URL the options spell."""
    host = opts.get("hostname") or opts.get("host")
    if host is None:
        return None
    scheme = string_value(opts.get("protocol")) or ("https:" if client == "https" else "http:")
    url: list[Any] = [["lit", f"{scheme.rstrip(':')}://"], *fold(host, ex.scope)]
    if "port" in opts:
        url += [["lit", ":"], *fold(opts["port"], ex.scope)]
    if "path" in opts:
        url += fold(opts["path"], ex.scope)
    return merge(url)


def _sidecar_app_id(ex: Extractor, headers: Node | None) -> list[Any] | None:
    """`headers: {"dapr-app-id": orders}`: the call goes through a Dapr sidecar to that app."""
    for key, value in object_pairs(headers).items():
        if key.lower() == HEADER:
            return fold(value, ex.scope) or None
    return None


def _method_param(ex: Extractor, node: Node) -> dict[str, Any]:
    """`{ method }` / `{ method: verb.toUpperCase() }` where the verb is a parameter of the enclosing
    function: the wrapper's call sites supply it (`request("POST", "/orders")`)."""
    inner = unwrap(node)
    while inner is not None and inner.type == "call_expression":  # verb.toUpperCase()
        fn = inner.child_by_field_name("function")
        if fn is None or text(fn.child_by_field_name("property")) not in _CASE_METHODS:
            break
        inner = unwrap(fn.child_by_field_name("object"))
    binding = ex.scope.lookup(text(inner)) if inner is not None and inner.type in _NAMES else None
    if binding is None or binding.get("k") not in ("param", FIELD_PARAM):
        return {}
    enclosing = binding.get("k") == FIELD_PARAM and binding.get("fid") in ex.scope.fids
    if binding.get("fid") != ex.fid and not enclosing:
        return {}  # only a field of an enclosing function's options object reaches a closure (a hook)
    idx = binding["idx"]
    out: dict[str, Any] = {"method_param": field_slot(idx, binding["field"]) if "field" in binding else idx}
    if binding.get("default"):
        out["method"] = binding["default"].upper()
    return out


def _options_param(ex: Extractor, args: list[Node]) -> dict[str, Any]:
    """`fetch(BASE + path, init)` / `fetch(url, { ...init, headers })` with `init` a parameter: the
    method is whatever options the call sites pass (`api("/orders", { method: "POST" })`)."""
    for arg in args:
        inner = unwrap(arg)
        names = [inner] if inner is not None and inner.type == "identifier" else []
        if inner is not None and inner.type == "object":
            names = [
                c.named_children[0]
                for c in inner.named_children
                if c.type == "spread_element" and c.named_children
            ]
        for name in names:
            binding = ex.scope.lookup(text(name)) if name.type == "identifier" else None
            if binding is not None and binding.get("k") == "param" and binding.get("fid") == ex.fid:
                return {"options_param": binding["idx"]}
    return {}
