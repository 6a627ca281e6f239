"""Spring Cloud Stream's annotation-style binding interfaces (``@EnableBinding(Channels.class)``).

``@Output("orders") MessageChannel orders();`` declares binding ``orders``; the service publishes
to it where its code asks the interface for that channel (``channels.orders().send(msg)``).
``@Input("x") SubscribableChannel x();`` consumes where the code asks for it (a hand-written
``subscribe``); ``@StreamListener`` handlers are read by ``messages``. A binding declared and never
asked for is not messaging: a shared interface of a library module declares every service's
bindings. The destination is ``spring.cloud.stream.bindings.<name>.destination``, else the name.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.facts import RawMessage
from orbitkb.analysis.jvm.apis import ann_values
from orbitkb.analysis.jvm.messages import binding_channel
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
from orbitkb.analysis.jvm.tables import STREAM_BINDING_ANNOTATIONS, STREAM_CONSTANTS

PROVIDER = "stream"


def _declared(index: ServiceIndex) -> dict[tuple[str, str], tuple[str, str]]:
    """(interface, method) -> (direction, binding name) of every binding method."""
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for ref in index.classes:
        if ref.data["kind"] != "interface":
            continue
        for m in ref.data["methods"]:
            for ann in m["anns"]:
                direction = STREAM_BINDING_ANNOTATIONS.get(ann[0])
                name = _binding_name(index, ref, ann, m["name"]) if direction else None
                if direction and name:
                    out[(ref.name, m["name"])] = (direction, name)
    return out


def _binding_name(index: ServiceIndex, ref: ClassRef, ann: list[Any], method: str) -> str | None:
    values = ann_values(ann, "value")
    if not values:
        return method  # ``@Output`` without a name binds the method's name
    value = values[0]
    if not isinstance(value, list):
        return None
    raw = value[0][1] if value and value[0][0] in ("ref", "unknown") else None
    if raw in STREAM_CONSTANTS:
        return STREAM_CONSTANTS[raw]
    expr = index.resolve(value, ref)
    return expr.literal() if expr is not None else None


def binding_messages(index: ServiceIndex, stream_service: bool) -> list[RawMessage]:
    """Publish/consume records where the service's code asks a binding interface for a channel."""
    if not stream_service:
        return []
    declared = _declared(index)
    if not declared:
        return []
    out: dict[tuple[str, str], RawMessage] = {}
    for ref in index.classes:
        for m in ref.data["methods"]:
            for owner, name, _args, line, *_rest in m.get("invokes", ()):
                found = declared.get((str(owner).rsplit(".", 1)[-1], name))
                if found is None or found in out:
                    continue
                direction, binding = found
                channel = binding_channel(binding)
                out[found] = RawMessage(direction, channel, PROVIDER, ref.path, line, line, "binding-interface",
                                        component=ref.name)  # fmt: skip
    return [out[k] for k in sorted(out)]
