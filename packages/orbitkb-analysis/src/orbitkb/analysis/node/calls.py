"""Recognisers for call and `new` expressions: routes, mounts, HTTP/gRPC clients, entry points.

Each appends JSON records to the extractor's ``out``; what cannot be classified in one file
(a `.get()` on an imported object: a router or an axios instance?) becomes a ``vcall`` for the
linker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from . import (
    autoload,
    convict,
    ctor_args,
    datasources,
    decorations,
    event_store,
    http_module,
    library_stores,
    listen_port,
    loops,
    messaging,
    nest_router,
    persistence,
    proxies,
    queues,
    rmq_queues,
    stores,
    versioning,
)
from .clients import call_options, client_call, declared_method, receiver_binding, verb_subscript
from .signatures import (
    BASE_THEN_VERB_CLIENTS,
    FRAMEWORK_OF,
    HTTP_CLIENT_TYPES,
    HTTP_CLIENTS,
    HTTP_VERBS,
    INSTANCE_VERBS,
    ROUTER_KINDS,
)
from .syntax import FUNCTION_TYPES, args_of, dotted, jsdoc, object_pairs, string_value, text, unwrap
from .values import field_slot, fold, object_values, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

_MAX_SEVERAL = 16  # topics named at one call site, each its own channel; a longer array is data
_PATHY = frozenset({"string", "template_string", "binary_expression", "identifier", "member_expression"})
_ENTRY_FACTORIES = (
    "NestFactory.create",
    "NestFactory.createMicroservice",
    "NestFactory.createApplicationContext",
)


def on_call(ex: Extractor, node: Node) -> None:
    fn = node.child_by_field_name("function")
    if fn is None:
        return
    name = dotted(fn)
    args = args_of(node)
    library_stores.on_use(ex, node, fn)
    if name is not None and name.startswith(_ENTRY_FACTORIES):
        ex.out["entrypoint"] = True
        ex.out["nest_bootstrap"] = True
        factories = ex.out.setdefault("nest_factories", [])
        if name.rsplit(".", 1)[-1] not in factories:
            factories.append(name.rsplit(".", 1)[-1])
        if name.endswith("createMicroservice") and len(args) > 1:
            ex.out["transports"]["@server"] = messaging.transport_of(args[1]) or "unknown"
            rmq_queues.on_microservice(ex, node, args[1])
    if name is not None and name.endswith("ClientProxyFactory.create"):
        rmq_queues.on_client_factory(ex, node, args)
    if name is not None and name.endswith(nest_router.REGISTER):
        nest_router.on_register(ex, args)
    where = ex.module_path(name)
    http_module.on_register(ex, where, args)
    convict.on_call(ex, where, args)
    if where in persistence.MONGOOSE_CONNECTIONS:
        ex.out["mongoose_connects"] = True
    if where is not None and where in HTTP_CLIENTS:
        client, method = HTTP_CLIENTS[where]
        client_call(ex, node, client, method, args)
        return
    if proxies.on_factory(ex, node, where, args):
        return
    if fn.type == "subscript_expression" and args and verb_subscript(ex, node, fn, args):
        return
    if where == ("mongoose", "model") and fn.type == "identifier" and args:
        persistence.mongoose_model(ex, node, fn, args)
        return
    if persistence.drizzle_table(ex, node, where, args):
        return
    if stores.on_query_builder(ex, node, fn, args):
        return
    if fn.type == "member_expression":
        prop = text(fn.child_by_field_name("property"))
        receiver = unwrap(fn.child_by_field_name("object"))
        if receiver is not None:
            loops.on_iteration(ex, node, prop, receiver, args)
        if receiver is not None and _on_member_call(ex, node, prop, receiver, args):
            return
    elif fn.type == "identifier":
        stores.on_plain_call(ex, node, args)  # a project's own query helper; its call still counts
    _record_invocation(ex, node, fn, args)


def on_new(ex: Extractor, node: Node) -> None:
    ctor = node.child_by_field_name("constructor")
    name = dotted(ctor) or ""
    args = args_of(node)
    ctor_args.note_new(ex, node)
    library_stores.on_use(ex, node, ctor)
    if messaging.on_new(ex, node, name, args) or queues.on_new(ex, node, ex.module_path(name), args):
        return
    if persistence.entity_schema(ex, node, name, args) or stores.on_new(ex, node, name, args):
        return
    # Loaded-proto and generated gRPC clients: `new pkg.PaymentService(address, credentials)`.
    if len(args) >= 2 and "redentials" in text(args[1]) and name:
        service = name.rsplit(".", 1)[-1]
        if service.endswith("Client") and len(service) > len("Client"):
            service = service[: -len("Client")]
        record = {"kind": "grpc", "client": "grpc-client", "url": fold(args[0], ex.scope), "method": None}
        ex.out["calls"].append({**record, "grpc_service": service, **ex.where(node)})


def special_binding(ex: Extractor, call: Node) -> dict[str, Any] | None:
    """Bindings to objects the tables in signatures.py do not create (schemas, Nest clients)."""
    return persistence.schema_binding(ex, call) or messaging.client_binding(ex, call)


# ----------------------------------------------------------------------------- member calls


def _on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    if prop == "listen" and receiver.type != "this":
        ex.out["entrypoint"] = True
        listen_port.on_listen(ex, args)
        return True
    if prop == "setGlobalPrefix" and args:
        ex.out["global_prefix"] = fold(args[0], ex.scope)
        return True
    if prop == "enableVersioning":
        versioning.on_enable(ex, args)
        return True
    if prop in proxies.PROXY_METHODS and proxies.on_forward(ex, node, prop, args):
        return True
    if receiver.type == "this" and datasources.on_this_call(ex, node, prop, args):
        return True
    if prop in HTTP_VERBS or prop == "request":
        if _on_verb(ex, node, prop, receiver, args):
            return True
    if prop == "route" and args and unwrap(args[0]) is not None and unwrap(args[0]).type == "object":  # type: ignore[union-attr]
        _fastify_route(ex, node, receiver, args[0])
        return True
    if prop == "use" and args:
        _mount(ex, node, receiver, args, "use")
        return True
    if prop == "decorate" and decorations.on_decorate(ex.out, ex.scope, args):
        return True
    if (
        prop == "register"
        and args
        and not (dotted(receiver) or "").endswith("Module")
        and not _injected_service(ex, receiver)
    ):
        _register(ex, node, receiver, args)
        return True
    if prop == "connectMicroservice" and args:
        ex.out["transports"]["@server"] = messaging.transport_of(args[0]) or "unknown"
        rmq_queues.on_microservice(ex, node, args[0])
    if prop == "prefix" and len(args) == 1:
        ref = value_ref(receiver, ex.scope)
        if ref is not None:
            ex.out["prefixes"].append({"recv": ref, "prefix": fold(args[0], ex.scope)})
        return True
    if prop == "getService" and args and string_value(args[0]) is not None:
        ex.out["calls"].append(
            {
                "kind": "grpc",
                "client": "nestjs-grpc",
                "url": None,
                "method": None,
                "grpc_service": string_value(args[0]),
                **ex.where(node),
            }
        )
        return True
    if prop == "addService" and args:
        service = dotted(args[0]) or ""
        parts = service.split(".")
        if len(parts) >= 2 and parts[-1] == "service":
            ex.out["grpc_implements"].append(parts[-2])
        return True
    if queues.on_member_call(ex, node, prop, receiver, args):
        return True
    if event_store.on_member_call(ex, node, prop, receiver, args):
        return True
    if messaging.on_member_call(ex, node, prop, receiver, args):
        return True
    if persistence.on_member_call(ex, node, prop, receiver, args):
        return True
    return stores.on_member_call(ex, node, prop, receiver, args)


def _on_verb(ex: Extractor, node: Node, verb: str, receiver: Node, args: list[Node]) -> bool:
    if (
        receiver.type == "call_expression"
        and verb in INSTANCE_VERBS
        and _base_then_verb(ex, node, verb, receiver, args)
    ):
        return True
    chain_path, root = _chain(receiver)
    if root is None:
        return False
    binding = receiver_binding(ex, root)
    kind = binding.get("k") if binding else None
    obj = binding.get("t") if binding and kind == "obj" else None
    if obj == "http_instance" or (kind == "type" and binding and binding.get("name") in HTTP_CLIENT_TYPES):
        client = binding.get("client") or HTTP_CLIENT_TYPES.get(binding.get("name", ""), "axios")  # type: ignore[union-attr]
        method = INSTANCE_VERBS.get(verb) or None
        client_call(ex, node, client, method, args, base=binding.get("base") if binding else None)
        return True
    if kind in ("val", "fn", "cls") or (kind == "obj" and obj not in ROUTER_KINDS):
        return False
    if verb == "request":
        return False
    method = HTTP_VERBS[verb]
    if chain_path is not None:
        path_node, handler = chain_path, (args[-1] if args else None)
    elif len(args) >= 2 and unwrap(args[0]) is not None and unwrap(args[0]).type in _PATHY:  # type: ignore[union-attr]
        path_node, handler = args[0], args[-1]
    elif (
        len(args) == 1
        and (kind == "imp" or (kind == "alias" and binding and binding["ref"][0] == "ret"))
        and unwrap(args[0]) is not None
        and unwrap(args[0]).type in _PATHY  # type: ignore[union-attr]
    ):
        # `api.get(url)` on an imported object or on what a factory returned (`apiAdapter(BASE)`):
        # an HTTP instance (a call) or a router (no handler: not a route) — decided when linked
        path_node, handler = args[0], None
    else:
        return False
    recv = value_ref(root, ex.scope)
    if recv is None:
        return False
    record = {
        "recv": recv,
        "fw": FRAMEWORK_OF.get(obj or "") if obj else ("express" if chain_path is not None else None),
        "method": method,
        "path": fold(path_node, ex.scope),
        "handler": handler_ref(ex, handler),
        "has_fn": _is_function(handler),
        "doc": _statement_doc(node),
        **ex.where(node),
    }
    if kind == "obj" or chain_path is not None or (binding is not None and kind == "param"):
        ex.out["routes"].append(record)
    elif recv[0] != "glob":
        record["options"] = call_options(ex, args[1:])
        record["verb"] = verb
        ex.out["vcalls"].append(record)
        # Or a helper of the service (`api.post = (p, b) => request("POST", p, b)`): a wrapper site.
        _record_invocation(ex, node, node.child_by_field_name("function"), args, mounts=False)
    return True


def _base_then_verb(ex: Extractor, node: Node, verb: str, receiver: Node, args: list[Node]) -> bool:
    """`supertest("http://orders:8080").post("/orders")`: the base URL, then the verb and the path."""
    where = ex.module_path(dotted(receiver.child_by_field_name("function")))
    client = BASE_THEN_VERB_CLIENTS.get(where) if where else None
    base = args_of(receiver)
    if client is None or not base:
        return False
    app = receiver_binding(ex, base[0]) if unwrap(base[0]) is not None else None
    if app is not None and (app.get("t") in ROUTER_KINDS or app.get("t") == "server"):
        return True  # `supertest(app)`: the service testing itself in process, not a call
    client_call(ex, node, client, INSTANCE_VERBS[verb] or None, args, base=fold(base[0], ex.scope))
    return True


def _chain(receiver: Node) -> tuple[Node | None, Node | None]:
    """`r.route("/x").get(h).post(h)` -> ("/x", r); `r.get(a).post(b)` (koa) -> (None, r)."""
    node: Node | None = receiver
    while node is not None and node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None, None
        prop = text(fn.child_by_field_name("property"))
        inner = unwrap(fn.child_by_field_name("object"))
        if prop == "route" and inner is not None and inner.type != "call_expression":
            args = args_of(node)
            return (args[0] if args else None), inner
        if prop not in HTTP_VERBS:
            return None, None
        node = inner
    if node is None or node.type not in ("identifier", "member_expression", "this"):
        return None, None
    return None, node


def handler_ref(ex: Extractor, node: Node | None) -> list[Any] | None:
    node = unwrap(node)
    if node is None:
        return None
    if node.type in FUNCTION_TYPES:
        return ["fid", ex.fid_for(node)]
    if node.type == "array":
        items = [c for c in node.named_children if c.type != "comment"]
        return handler_ref(ex, items[-1]) if items else None
    if node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type in ("import", "identifier") and text(fn) in ("require", "import"):
            spec = string_value(args_of(node)[0]) if args_of(node) else None
            return ["imp", spec, "*", ""] if spec else None
        if fn is not None and text(fn.child_by_field_name("property")) == "bind":
            return handler_ref(ex, fn.child_by_field_name("object"))
        args = args_of(node)
        return handler_ref(ex, args[-1]) if args else None  # asyncHandler(fn), catchAsync(ctrl.list)
    return value_ref(node, ex.scope)


def _is_function(node: Node | None) -> bool:
    node = unwrap(node)
    while node is not None and node.type == "call_expression":
        args = args_of(node)
        node = unwrap(args[-1]) if args else None
    return node is not None and node.type in FUNCTION_TYPES


def _statement_doc(node: Node) -> str | None:
    stmt = node
    while stmt.parent is not None and stmt.parent.type in ("await_expression", "expression_statement"):
        stmt = stmt.parent
    return jsdoc(stmt)


def _fastify_route(ex: Extractor, node: Node, receiver: Node, opts_node: Node) -> None:
    opts = object_pairs(opts_node)
    url = opts.get("url") or opts.get("path")
    method_node = unwrap(opts.get("method"))
    if url is None or method_node is None:
        return
    methods = (
        [string_value(c) for c in method_node.named_children]
        if method_node.type == "array"
        else [string_value(method_node)]
    )
    recv = value_ref(receiver, ex.scope)
    if recv is None:
        return
    for method in methods:
        if method:
            ex.out["routes"].append(
                {
                    "recv": recv,
                    "fw": "fastify",
                    "method": method.upper(),
                    "path": fold(url, ex.scope),
                    "handler": handler_ref(ex, opts.get("handler")),
                    "has_fn": True,
                    "doc": _statement_doc(node),
                    **ex.where(node),
                }
            )


def _mount(ex: Extractor, node: Node, receiver: Node, args: list[Node], how: str) -> None:
    recv = value_ref(_chained_root(receiver), ex.scope)
    if recv is None:
        return
    first = unwrap(args[0])
    prefix: list[Any] = []
    rest = args
    lead = None
    if first is not None and first.type in ("string", "template_string", "binary_expression"):
        prefix, rest = fold(first, ex.scope), args[1:]
    elif first is not None and first.type in ("identifier", "member_expression"):
        binding = receiver_binding(ex, first)
        if binding is not None and binding.get("k") == "val":
            prefix, rest = binding["v"], args[1:]
        elif binding is None or binding.get("k") in ("imp", "alias"):
            # An imported name: a path constant or a router; the linker knows which.
            lead, rest = value_ref(first, ex.scope), args[1:]
    children = []
    for raw in rest:
        arg = unwrap(raw)
        if arg is None:
            continue
        if arg.type == "call_expression":
            fn = arg.child_by_field_name("function")
            if fn is not None and text(fn.child_by_field_name("property")) in ("routes", "middleware"):
                arg = unwrap(fn.child_by_field_name("object"))  # koa: app.use(router.routes())
        ref = value_ref(arg, ex.scope) if arg is not None else None
        if ref is not None and ref[0] != "glob":
            children.append(ref)
    if children or lead:
        mount = {"recv": recv, "prefix": prefix, "children": children, "how": how, **ex.where(node)}
        if lead is not None:
            mount["lead"] = lead
        ex.out["mounts"].append(mount)


# Express/Koa methods that return their app or router, so calls chain: `app.use(a).use("/x", r)`.
_CHAINABLE = frozenset({"use", "set", "enable", "disable", "engine"})


def _chained_root(receiver: Node) -> Node:
    """The app a chain of `.use(...)` calls starts from: `app.use(json()).use("/x", r)` mounts on `app`."""
    node = receiver
    while node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression" or text(fn.child_by_field_name("property")) not in _CHAINABLE:
            return receiver
        inner = unwrap(fn.child_by_field_name("object"))
        if inner is None:
            return receiver
        node = inner
    return node


def _injected_service(ex: Extractor, receiver: Node) -> bool:
    """`this.users` declared as `UsersService`: its `register(dto)` is a method call, not Fastify's."""
    name = dotted(receiver) or ""
    binding = ex.scope.field(name[5:]) if name.startswith("this.") and name.count(".") == 1 else None
    return binding is not None and binding.get("k") == "type"


def _register(ex: Extractor, node: Node, receiver: Node, args: list[Node]) -> None:
    """Fastify: `app.register(plugin, { prefix: "/v1" })` mounts the plugin's first parameter."""
    recv = value_ref(receiver, ex.scope)
    plugin = handler_ref(ex, args[0])
    if plugin is not None and plugin[0] == "imp" and decorations.on_env_plugin(ex.out, ex.scope, plugin[1], args):
        return
    if autoload.note(ex, plugin, args):
        return
    if recv is None or plugin is None:
        return
    opts = object_pairs(args[1]) if len(args) > 1 else {}
    prefix = fold(opts["prefix"], ex.scope) if "prefix" in opts else []
    child = ["arg", plugin, 0]
    ex.out["mounts"].append(
        {"recv": recv, "prefix": prefix, "children": [child], "how": "register", **ex.where(node)}
    )


def _object_arg(ex: Extractor, arg: Node) -> list[Any] | None:
    """An object argument stands for the topic it names (a kafkajs record handed to a wrapper), an
    array of one item for that item (``consume(["orders"])`` into ``subscribe({ topics })``)."""
    inner = unwrap(arg)
    if inner is not None and inner.type == "object":
        return messaging.record_topic(ex, inner)
    items = [c for c in inner.named_children if c.type != "comment"] if inner is not None and inner.type == "array" else []
    return fold(items[0], ex.scope) if len(items) == 1 else None


def _several(ex: Extractor, arg: Node) -> list[list[Any]] | None:
    """An argument naming several topics at once (``consume(["a", "b"])``,
    ``consume({ topics: ["a", "b"] })``): each item, one channel apiece at the call site."""
    inner = unwrap(arg)
    if inner is None:
        return None
    if inner.type == "object":
        items = messaging.record_topics(ex, inner)
    elif inner.type == "array":
        items = [fold(c, ex.scope) for c in inner.named_children if c.type != "comment"]
    else:
        return None
    return items if 1 < len(items) <= _MAX_SEVERAL else None


def _argument_fields(ex: Extractor, args: list[Node]) -> dict[str, Any]:
    """The fields of object-literal arguments, keyed like the options-object parameters that take
    them apart (`"0.url"`)."""
    out: dict[str, Any] = {}
    for i, arg in enumerate(args):
        inner = unwrap(arg)
        if inner is not None and inner.type == "object":
            for key, parts in object_values(inner, ex.scope).items():
                if "." not in key:
                    out[field_slot(i, key)] = parts
    return out


def _record_invocation(
    ex: Extractor, node: Node, fn: Node | None, args: list[Node], mounts: bool = True
) -> None:
    callee = value_ref(fn, ex.scope)
    if callee is None or callee[0] == "glob":
        return
    folded = [fold(a, ex.scope) if a.type in _PATHY else _object_arg(ex, a) for a in args[:4]]
    where = ex.where(node)
    target = ex.out["functions"].get(ex.fid) if ex.fid else None
    entry: dict[str, Any] = {"callee": callee, "args": folded, "line": where["line"], "end": where["end"]}
    methods = {str(i): m for i, m in ((i, declared_method(a)) for i, a in enumerate(args[:4])) if m}
    if methods:
        entry["methods"] = methods  # `api("/orders", { method: "POST" })`
    fields = _argument_fields(ex, args[:4])
    if fields:
        entry["fields"] = fields  # `call({ url: "/orders" })` into `({ url }) => ...`
    several = {str(i): items for i, items in ((i, _several(ex, a)) for i, a in enumerate(args[:4])) if items}
    if several:
        entry["several"] = several  # `consume({ topics: ["a", "b"] })`: one channel per topic
    if target is not None:
        target["invokes"].append(entry)
    else:
        ex.out.setdefault("invokes", []).append(entry)
    if not mounts:
        return
    # `routes(app)` / `require("./routes")(router)`: the callee registers routes on its parameter.
    for idx, raw in enumerate(args):
        arg = unwrap(raw)
        if arg is None or arg.type != "identifier":
            continue
        binding = ex.scope.lookup(text(arg))
        if binding is None:
            continue
        if binding.get("k") == "param" or (binding.get("k") == "obj" and binding.get("t") in ROUTER_KINDS):
            recv = value_ref(arg, ex.scope)
            if recv is not None:
                ex.out["mounts"].append(
                    {"recv": recv, "prefix": [], "children": [["arg", callee, idx]], "how": "call", **where}
                )
