"""NestJS RabbitMQ queues: the queue a client sends into and the queue a microservice consumes.

With `transport: Transport.RMQ` every message of a client goes into one queue
(`options: { queue: "orders_queue" }`) and the microservice listening on that queue receives them
all; the message pattern only picks a handler inside it. So the queue is a channel of its own:
published by each `send` / `emit` of a client registered with it (ClientsModule.register /
registerAsync, a `{ provide: TOKEN, useFactory: () => ClientProxyFactory.create(...) }` provider,
`@Client(...)`), consumed by the service that `createMicroservice` / `connectMicroservice` opens
on it. The options object is read as written, from a `useFactory`, or from what a function of the
project returns (`rmq.createConfig(Queues.ORDERS)`, its parameters bound to the call's arguments
by the linker). Only the RMQ transport: NATS's `queue` option names a queue group, not a channel.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .signatures import NEST_TRANSPORTS
from .syntax import args_of, dotted, object_pairs, text, unwrap
from .values import fold, symref, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

_CONTAINER_GETTERS = frozenset({"get", "resolve"})
_FUNCTIONS = ("arrow_function", "function_expression", "method_definition")


def is_rmq(name: str) -> bool:
    """`Transport.RMQ` (however the enum is reached: `microservices.Transport.RMQ`)."""
    head, _, member = name.rpartition(".")
    return head.endswith("Transport") and NEST_TRANSPORTS.get(member) == "rabbitmq"


def factory_body(node: Node | None) -> Node | None:
    """What a `useFactory: (config) => ({ ... })` (or `{ return ... }`) returns."""
    node = unwrap(node)
    if node is None or node.type not in _FUNCTIONS:
        return None
    body = unwrap(node.child_by_field_name("body"))
    if body is not None and body.type == "statement_block":
        found = [c for c in body.named_children if c.type == "return_statement" and c.named_children]
        body = unwrap(found[-1].named_children[0]) if found else None
    if body is not None and body.type == "await_expression" and body.named_children:
        body = unwrap(body.named_children[0])
    return body


def _typed_params(fn: Node | None) -> dict[str, str]:
    """Parameter name -> declared type of a function (`(rmq: RmqConfig) => ...`): what Nest injects."""
    params = fn.child_by_field_name("parameters") if fn is not None else None
    out: dict[str, str] = {}
    for param in params.named_children if params is not None else []:
        pattern, typed = param.child_by_field_name("pattern"), param.child_by_field_name("type")
        inner = [c for c in typed.named_children if c.type != "comment"] if typed is not None else []
        if pattern is not None and pattern.type == "identifier" and inner:
            out[text(pattern)] = text(inner[0]).split("<")[0]
    return out


def _options_call(ex: Extractor, call: Node, injected: dict[str, str]) -> list[Any] | None:
    """["ret", fn, args] of a call returning the options; a method of an injected parameter
    (`rmq.createConfig(q)` with `rmq: RmqConfig`) is named through the parameter's class."""
    head, _, method = (dotted(call.child_by_field_name("function")) or "").partition(".")
    binding = ex.scope.lookup(head) if head else None
    kind = injected.get(head) or (binding.get("type") if binding and binding.get("k") == "param" else None)
    cls = symref(kind, ex.scope) if kind else _resolved_from_container(binding)
    if cls is not None and method and "." not in method:
        if cls[0] == "glob":
            return None
        return ["ret", ["member", cls, method], [fold(a, ex.scope) for a in args_of(call)[:4]]]
    ref = value_ref(call, ex.scope)
    return ref if ref is not None and ref[0] == "ret" else None


def _resolved_from_container(binding: dict[str, Any] | None) -> list[Any] | None:
    """The class of `const rmq = app.get(RmqService)` (or `moduleRef.resolve(...)`): what Nest's
    container hands back is an instance of the class asked for."""
    ref = binding.get("ref") if binding is not None and binding.get("k") == "alias" else None
    if not ref or ref[0] != "ret" or len(ref) < 3 or len(ref[2]) < 1:
        return None
    getter = ref[1]
    if not (getter and getter[0] == "member" and getter[2] in _CONTAINER_GETTERS):
        return None
    first = ref[2][0]
    return first[0][1] if len(first) == 1 and first[0][0] == "ref" else None


def queue_of(
    ex: Extractor, node: Node | None, injected: dict[str, str] | None = None
) -> dict[str, Any] | None:
    """The RMQ queue of microservice options: `{"queue": parts}` when written in place,
    `{"options_of": ret_ref}` when a function of the project returns the options; else None."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "object":
        pairs = object_pairs(node)
        if "transport" not in pairs and "useFactory" in pairs:
            factory = unwrap(pairs["useFactory"])
            return queue_of(ex, factory_body(factory), _typed_params(factory))
        if not is_rmq(dotted(unwrap(pairs.get("transport"))) or ""):
            return None
        queue = object_pairs(pairs.get("options")).get("queue")
        return {"queue": fold(queue, ex.scope)} if queue is not None else None
    if node.type == "call_expression":
        ref = _options_call(ex, node, injected or {})
        return {"options_of": ref} if ref is not None else None
    return None


def provided_token(call: Node) -> Node | None:
    """`provide: TOKEN` of the provider whose `useFactory` returns this call, else None."""
    node: Node | None = call
    for _ in range(4):  # call <- arrow (<- return <- block <- function) <- pair
        node = node.parent if node is not None else None
        if node is None:
            return None
        if node.type == "pair":
            key = node.child_by_field_name("key")
            if key is None or text(key) != "useFactory" or node.parent is None:
                return None
            return object_pairs(node.parent).get("provide")
    return None


def on_client_factory(ex: Extractor, call: Node, args: list[Node]) -> None:
    """`{ provide: TOKEN, useFactory: () => ClientProxyFactory.create(options) }`: the queue of TOKEN."""
    token = provided_token(call)
    found = queue_of(ex, args[0]) if args and token is not None else None
    if token is not None and found is not None:
        record = {"token": fold(token, ex.scope), "token_text": text(token), **found}
        ex.out.setdefault("rmq_clients", []).append(record)


def on_microservice(ex: Extractor, node: Node, options: Node | None) -> None:
    """`createMicroservice(AppModule, options)` / `app.connectMicroservice(options)`: the queue it consumes."""
    found = queue_of(ex, options)
    if found is not None:
        ex.out.setdefault("rmq_servers", []).append({**found, **ex.where(node)})
