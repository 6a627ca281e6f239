"""MicroProfile / SmallRye Reactive Messaging (Quarkus, Helidon, Open Liberty): ``@Incoming("c")``
methods consume channel ``c``, ``@Outgoing("c")`` methods publish to it, and a ``@Channel("c")``
injection publishes when it is an emitter and consumes when it is a stream.

A channel is named here as the code names it; the broker destination and the connector come from
``mp.messaging.(incoming|outgoing).<c>.*`` at resolution time. A channel the same service both
produces and consumes is an in-memory stream between two of its beans, not messaging.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from orbitkb.analysis.facts import Expr, RawApi, RawMessage
from orbitkb.analysis.jvm.apis import ann_values, handler_message, message_api
from orbitkb.analysis.jvm.body import simple_type
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
from orbitkb.analysis.jvm.tables import REACTIVE_EMITTERS, REACTIVE_METHODS, REACTIVE_STREAMS

PROVIDER = "reactive-messaging"
_IMPORT = "reactive.messaging"


def _uses_reactive_messaging(ref: ClassRef) -> bool:
    return any(_IMPORT in imp for imp in ref.file.get("imports", ()))


def _name(index: ServiceIndex, ref: ClassRef, ann: list[Any]) -> Expr | None:
    values = ann_values(ann, "value")
    if not values or not isinstance(values[0], list):
        return None
    expr = index.resolve(values[0], ref)
    return expr if expr is not None and expr.literal() else None


def _injections(ref: ClassRef) -> Iterator[tuple[str, list[Any], int]]:
    """(type, annotations, line) of every field and method/constructor parameter."""
    for fld in ref.data["fields"]:
        yield fld["type"], fld["anns"], fld["line"]
    for m in (*ref.data["methods"], *ref.data.get("ctors", ())):
        for _param, type_text, anns in m.get("params", ()):
            yield type_text, anns, m["line"]


class ReactiveChannels:
    """Channels of one service; ``messages()`` drops the in-memory ones."""

    def __init__(self, index: ServiceIndex, framework: str) -> None:
        self.index = index
        self.framework = framework
        self.apis: list[RawApi] = []
        self._messages: list[RawMessage] = []

    def collect(self, ref: ClassRef) -> list[tuple[str, str]]:
        """Record the channels of a class; returns (method, handler) pairs of its consumers."""
        if not _uses_reactive_messaging(ref):
            return []
        handlers: list[tuple[str, str]] = []
        for m in ref.data["methods"]:
            for ann in m["anns"]:
                direction = REACTIVE_METHODS.get(ann[0])
                channel = _name(self.index, ref, ann) if direction else None
                if direction is None or channel is None:
                    continue
                handler = f"{ref.name}.{m['name']}"
                if direction == "consumes":
                    self.apis.append(message_api(ref, m, channel, PROVIDER, self.framework, ann[2]))
                    handlers.append((m["name"], handler))
                self._add(ref, direction, channel, ann[2], m["end"], handler)
        for type_text, anns, line in _injections(ref):
            kind = simple_type(type_text)
            direction = "publishes" if kind in REACTIVE_EMITTERS else "consumes" if kind in REACTIVE_STREAMS else None
            ann = next((a for a in anns if a[0] == "Channel"), None)
            channel = _name(self.index, ref, ann) if ann is not None and direction else None
            if direction is not None and channel is not None and ann is not None:
                self._add(ref, direction, channel, ann[2], line, None)
        return handlers

    def _add(self, ref: ClassRef, direction: str, channel: Expr, line: int, end: int, handler: str | None) -> None:
        self._messages.append(handler_message(ref, direction, channel, PROVIDER, "reactive-messaging", line, end, handler))

    def messages(self) -> list[RawMessage]:
        internal = _internal(self._messages)
        return [m for m in self._messages if m.channel.literal() not in internal]

    def handler_apis(self) -> list[RawApi]:
        internal = _internal(self._messages)
        return [a for a in self.apis if a.channel not in internal]


def _internal(messages: Iterable[RawMessage]) -> set[str]:
    seen: dict[str, set[str]] = {}
    for m in messages:
        seen.setdefault(m.channel.literal() or "", set()).add(m.direction)
    return {name for name, directions in seen.items() if len(directions) == 2}
