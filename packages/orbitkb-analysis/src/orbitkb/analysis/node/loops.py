"""Callbacks run once per item of a literal list: `TOPICS.forEach((t) => consumer.subscribe(t))`.

`list.forEach(cb)` / `list.map(cb)` / `list.flatMap(cb)` on a list of strings (written inline, in a
constant or in a class field) calls the callback with each item. It is recorded as one invocation
of the callback whose first argument names several values, so a channel or address the callback
builds from its parameter (`${service}.ping`) is reported once per item, where the loop runs.
`for (const t of list) { ... }` visits its body once per item with `t` bound to that item.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from .clients import receiver_binding
from .extractor import Extractor
from .syntax import CLASS_TYPES, FUNCTION_TYPES, text, unwrap
from .values import fold

#: array methods that call their callback with each item as its first argument
ITERATORS = frozenset({"forEach", "map", "flatMap"})
#: a longer list is data, not a set of names the code was written for
MAX_ITEMS = 16
#: the binding kind of a constant or field holding a short list of strings
LIST = "list"


def list_binding(ex: Extractor, value: Node) -> dict[str, Any] | None:
    """The binding of `["a", "b"]` (a short list of strings), else None."""
    items = _items(ex, value)
    return {"k": LIST, "items": items} if items is not None else None


def on_iteration(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    """`xs.forEach((x) => ...)` over a known list: the callback invoked once per item."""
    if prop not in ITERATORS or not args:
        return False
    callback = unwrap(args[0])
    if callback is None or callback.type not in FUNCTION_TYPES:
        return False
    items = _items(ex, receiver)
    if items is None:
        binding = receiver_binding(ex, receiver) if receiver.type in ("identifier", "member_expression") else None
        items = binding.get("items") if binding is not None and binding.get("k") == LIST else None
    if not items:
        return False
    fid = ex.fid_for(callback)
    key = f"__each.{fid}"
    ex.scope.module[key] = {"k": "fn", "fid": fid, "key": key}
    where = ex.where(node)
    entry = {"callee": ["loc", key, ""], "args": [None], "line": where["line"], "end": where["end"]}
    entry["several"] = {"0": items}
    target = ex.out["functions"].get(ex.fid) if ex.fid else None
    if target is not None:
        target["invokes"].append(entry)
    else:
        ex.out.setdefault("invokes", []).append(entry)
    return False  # the callback's own calls are still visited where they are


def on_for_of(ex: Extractor, node: Node) -> bool:
    """`for (const topic of TOPICS) await consumer.subscribe({ topic })`: the body visited once per
    item with the loop variable bound to it. A body declaring functions is visited once as usual."""
    if not any(c.type == "of" for c in node.children):
        return False
    left, body = node.child_by_field_name("left"), node.child_by_field_name("body")
    right = unwrap(node.child_by_field_name("right"))
    if left is None or left.type != "identifier" or right is None or body is None:
        return False
    items = _items(ex, right)
    if items is None and right.type in ("identifier", "member_expression"):
        binding = receiver_binding(ex, right)
        items = binding.get("items") if binding is not None and binding.get("k") == LIST else None
    if not items or _declares(body):
        return False
    name, frame = text(left), ex.scope.frames[-1]
    saved = frame.get(name)
    try:
        for parts in items:
            frame[name] = {"k": "val", "v": parts, "key": name}
            ex.visit(body)
    finally:
        if saved is None:
            frame.pop(name, None)
        else:
            frame[name] = saved
    return True


def _declares(body: Node) -> bool:
    """Whether a function or class is written inside ``body`` (its facts must be recorded once)."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type in FUNCTION_TYPES or node.type in CLASS_TYPES:
            return True
        stack.extend(node.named_children)
    return False


def _items(ex: Extractor, value: Node) -> list[list[Any]] | None:
    value = unwrap(value) or value
    if value.type != "array":
        return None
    nodes = [c for c in value.named_children if c.type != "comment"]
    if not 1 < len(nodes) <= MAX_ITEMS or any(n.type not in ("string", "template_string") for n in nodes):
        return None
    return [fold(n, ex.scope) for n in nodes] if all(text(n) for n in nodes) else None
