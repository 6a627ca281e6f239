"""Micronaut clients and messaging (its ``@Controller("/prefix")`` routes are read with Spring's, in
``apis``): declarative ``@Client(id = "svc")`` interfaces, whose ``@Get``/``@Post`` methods may be
inherited from a shared API interface, and messaging beans — a ``@KafkaListener``/``@RabbitListener``/``@NatsListener`` class
consumes the channel each method's ``@Topic``/``@Queue``/``@Subject`` names, a ``@KafkaClient``/
``@RabbitClient``/``@NatsClient`` interface publishes to it.

Spring shares some of these annotation names (``@Controller``, ``@RabbitListener``, ``@KafkaListener``)
with other meanings: only a class whose file imports Micronaut is read here.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.facts import Expr, Lit, RawApi, RawMessage
from orbitkb.analysis.jvm.apis import ann_values, handler_message, message_api
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
from orbitkb.analysis.jvm.tables import MICRONAUT_CHANNELS, MICRONAUT_MESSAGING

_IMPORT = "io.micronaut"


def is_micronaut(ref: ClassRef) -> bool:
    return any(imp.startswith(_IMPORT) for imp in ref.file.get("imports", ()))


def client(ref: ClassRef) -> list[Any] | None:
    """The ``@Client`` annotation of a Micronaut declarative client interface."""
    ann = ref.ann("Client")
    return ann if ann is not None and ref.data["kind"] == "interface" and is_micronaut(ref) else None


def client_base(index: ServiceIndex, ref: ClassRef, ann: list[Any]) -> tuple[Expr | None, str | None]:
    """(base URL, service name) of a declarative client: ``id`` is a service id that discovery (or
    ``micronaut.http.services.<id>.url``) resolves, ``value`` a URL or a ``${property}``."""
    ids = [v for v in ann_values(ann, "id") if isinstance(v, list)]
    if ids:
        expr = index.resolve(ids[0], ref)
        name = expr.literal() if expr is not None else None
        if name:
            return Expr((Lit(f"http://{name}"),)), name
    values = [v for v in ann_values(ann, "value") if isinstance(v, list)]
    if values:
        expr = index.resolve(values[0], ref)
        text = expr.literal() if expr is not None else None
        if text is not None and "://" not in text and not text.startswith("$"):
            return Expr((Lit(f"http://{text}"),)), text  # ``@Client("orders")``: a service id too
        return expr, None
    return None, None


def _channel(index: ServiceIndex, ref: ClassRef, anns: list[list[Any]]) -> list[tuple[Expr, int]]:
    out = []
    for ann in anns:
        attrs = MICRONAUT_CHANNELS.get(ann[0])
        if attrs is None:
            continue
        for value in ann_values(ann, *attrs):
            expr = index.resolve(value, ref) if isinstance(value, list) else None
            if expr is not None and expr.parts:
                out.append((expr, ann[2]))
    return out


def messaging(
    index: ServiceIndex, ref: ClassRef, framework: str
) -> tuple[list[RawApi], list[RawMessage], list[tuple[str, str]]]:
    """(message APIs, messages, (method, handler) pairs) of one Micronaut messaging bean."""
    if not is_micronaut(ref):
        return [], [], []
    kind = next((a for a in ref.data["anns"] if a[0] in MICRONAUT_MESSAGING), None)
    if kind is None:
        return [], [], []
    provider, direction = MICRONAUT_MESSAGING[kind[0]]
    # ``@RabbitClient("exchange")`` publishes every method to its exchange (their ``@Binding`` is
    # the routing key); without one, the binding names the queue of the default exchange
    exchange = [
        (e, kind[2]) for v in ann_values(kind, "value") if isinstance(v, list)
        for e in [index.resolve(v, ref)] if e is not None and e.literal()
    ] if kind[0] == "RabbitClient" else []  # fmt: skip
    apis: list[RawApi] = []
    messages: list[RawMessage] = []
    handlers: list[tuple[str, str]] = []
    for m in ref.data["methods"]:
        own = _channel(index, ref, m["anns"])
        channels = exchange if exchange and own else own
        handler = f"{ref.name}.{m['name']}"
        for channel, line in channels:
            if direction == "consumes":
                apis.append(message_api(ref, m, channel, provider, framework, line))
                handlers.append((m["name"], handler))
            messages.append(handler_message(ref, direction, channel, provider, "micronaut", line, m["end"], handler))
    return apis, messages, handlers
