"""amqplib queues the broker names: a consumer of a server-named queue consumes the exchange it binds.

`const q = await ch.assertQueue('', { exclusive: true })` (or `const { queue } = ...`, or the
callback API's `ch.assertQueue('', opts, (err, q) => ...)`) asks RabbitMQ for a fresh queue whose
name exists only at run time. Such a queue is no channel: the service listens to the exchange it
binds the queue to, so `ch.bindQueue(q.queue, EXCHANGE, key)` is the consumer's record (channel =
the exchange) and `ch.consume(q.queue, fn)` adds nothing. A queue with a name of its own keeps its
`consume` record and its binding adds none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from .syntax import FUNCTION_TYPES, string_value, text, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

KEY = "server_queues"  # ex.out scratch list: how the file refers to its server-named queues
_UP = frozenset({"await_expression", "parenthesized_expression"})


def _names(decl: Node) -> list[str]:
    """How code refers to the queue a declarator receives: `q.queue`, `queue`, or a renamed field."""
    target = decl.child_by_field_name("name")
    if target is None:
        return []
    if target.type == "identifier":
        return [f"{text(target)}.queue"]
    out = []
    for child in target.named_children if target.type == "object_pattern" else []:
        if child.type == "shorthand_property_identifier_pattern" and text(child) == "queue":
            out.append("queue")
        elif child.type == "pair_pattern" and text(child.child_by_field_name("key")) == "queue":
            value = child.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                out.append(text(value))
    return out


def _callback_names(args: list[Node]) -> list[str]:
    fn = unwrap(args[-1]) if args else None
    if fn is None or fn.type not in FUNCTION_TYPES:
        return []
    params = fn.child_by_field_name("parameters")
    named = [p for p in params.named_children if p.type != "comment"] if params is not None else []
    second = named[1] if len(named) > 1 else None
    if second is not None and second.type == "required_parameter":  # TypeScript wraps the name
        second = second.child_by_field_name("pattern")
    return [f"{text(second)}.queue"] if second is not None and second.type == "identifier" else []


def note_server_named(ex: Extractor, node: Node, args: list[Node]) -> None:
    """`assertQueue('')`: remember how this file names the queue the broker will make."""
    if not args or string_value(args[0]) != "":
        return
    names = _callback_names(args)
    up = node.parent
    while up is not None and up.type in _UP:
        up = up.parent
    if up is not None and up.type == "variable_declarator":
        names += _names(up)
    ex.out.setdefault(KEY, []).extend(names)


def on_queue_use(ex: Extractor, node: Node, prop: str, args: list[Node]) -> bool:
    """`bindQueue(q.queue, exchange, key)` -> consumes the exchange; `consume(q.queue)` -> nothing.
    False when the queue is not a server-named one (the ordinary recognisers take it)."""
    queue = unwrap(args[0]) if args else None
    if queue is None or " ".join(text(queue).split()) not in ex.out.get(KEY, ()):
        return False
    if prop == "bindQueue" and len(args) >= 2:
        record = {"dir": "consumes", "channel": fold(args[1], ex.scope), "provider": "rabbitmq"}
        ex.out["messages"].append({**record, "client": "rabbitmq", **ex.where(node)})
    return True
