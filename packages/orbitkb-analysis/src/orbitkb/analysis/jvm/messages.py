"""Messaging at link time: listener annotations (as message APIs and consumes), Spring Cloud Stream
functional beans and @StreamListener, and publish/consume sites found in method bodies."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import evolve

from orbitkb.analysis.dapr.apply import PROVIDER_PREFIX, component_label
from orbitkb.analysis.facts import Expr, Lit, Prop, RawApi, RawMessage
from orbitkb.analysis.jvm.apis import ann_values, handler_message, message_api
from orbitkb.analysis.jvm.body import simple_type
from orbitkb.analysis.jvm.calls import has_param
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
from orbitkb.analysis.jvm.tables import LISTENERS, STREAM_ARTIFACTS, STREAM_CONSTANTS, STREAM_FUNCTION_TYPES

_HANDLER_MARKERS = {"KafkaHandler", "RabbitHandler"}
_STREAM_IMPORTS = ("org.springframework.cloud.stream", "org.springframework.cloud.function")
_DAPR_IMPORTS = ("io.dapr.",)


def _channels(index: ServiceIndex, ref: ClassRef, ann: list[Any], provider: str) -> list[Expr]:
    attrs = LISTENERS[ann[0]][1]
    out: list[Expr] = []
    for attr in attrs:
        for value in ann[1].get(attr, ()):
            if isinstance(value, dict):  # @Queue("q") / @QueueBinding(exchange = @Exchange("x"), ...)
                out.extend(_nested_channel(index, ref, value))
                continue
            if provider == "stream":
                raw = value[0][1] if value and value[0][0] in ("ref", "unknown") else None
                if raw in STREAM_CONSTANTS:
                    out.append(binding_channel(STREAM_CONSTANTS[raw]))
                    continue
                expr = index.resolve(value, ref)
                text = expr.literal() if expr is not None else None
                out.append(binding_channel(text) if text else expr)  # type: ignore[arg-type]
                continue
            expr = index.resolve(value, ref)
            if expr is not None and expr.parts:
                out.append(expr)
        if out:
            break
    return out


def binding_channel(name: str) -> Expr:
    """A Spring Cloud Stream binding as a channel: its configured destination, else its name."""
    return Expr((Prop(f"spring.cloud.stream.bindings.{name}.destination", name),))


def _nested_channel(index: ServiceIndex, ref: ClassRef, value: dict[str, Any]) -> list[Expr]:
    args = value["args"]
    if value["ann"] == "QueueBinding":
        for key in ("exchange", "value"):
            for inner in args.get(key, ()):
                if isinstance(inner, dict):
                    found = _nested_channel(index, ref, inner)
                    if found:
                        return found
        return []
    for key in ("value", "name", "queues"):
        for v in args.get(key, ()):
            if isinstance(v, list):
                expr = index.resolve(v, ref)
                if expr is not None and expr.parts:
                    return [expr]
    return []


class MessageBuilder:
    def __init__(self, index: ServiceIndex, framework: str, dependencies: Iterable[str] = ()) -> None:
        self.index = index
        self.framework = framework
        self.apis: list[RawApi] = []
        self.messages: list[RawMessage] = []
        self.templates: list[tuple[ClassRef, str, RawMessage]] = []
        self.stream_service = any(
            imp.startswith(_STREAM_IMPORTS) for ref in index.classes for imp in ref.file.get("imports", ())
        ) or any(dep.rsplit(":", 1)[-1].startswith(STREAM_ARTIFACTS) for dep in dependencies)

    def listeners(self, ref: ClassRef) -> list[tuple[str, str]]:
        """Record listener APIs of a class; returns (method, handler) pairs for attribution."""
        handlers: list[tuple[str, str]] = []
        class_ann = next((a for a in ref.data["anns"] if a[0] in LISTENERS), None)
        for m in ref.data["methods"]:
            anns = [a for a in m["anns"] if a[0] in LISTENERS]
            if class_ann is not None and any(a[0] in _HANDLER_MARKERS for a in m["anns"]):
                anns.append(class_ann)
            for ann in anns:
                provider = LISTENERS[ann[0]][0]
                line = ann[2] if ann is not class_ann else m["line"]
                for channel in _channels(self.index, ref, ann, provider):
                    self._consume(ref, m, channel, provider, line)
                    handlers.append((m["name"], f"{ref.name}.{m['name']}"))
            if anns:
                self._send_to(ref, m, LISTENERS[anns[0][0]][0])
            if self.stream_service and any(a[0] == "Bean" for a in m["anns"]):
                handlers.extend(self._function_bean(ref, m))
            handlers.extend(self._dapr_topic(ref, m))
        return handlers

    def _send_to(self, ref: ClassRef, m: dict[str, Any], provider: str) -> None:
        """``@SendTo("x")`` on a listener: what the handler returns is published to ``x`` (a Stream
        binding, a Kafka topic, Rabbit ``exchange/routingKey``: the exchange, else the routing key
        on the default exchange). Without a value the reply goes where the message's header says."""
        ann = next((a for a in m["anns"] if a[0] == "SendTo"), None)
        for value in ann_values(ann, "value"):
            if not isinstance(value, list) or ann is None:
                continue
            raw = value[0][1] if value and value[0][0] in ("ref", "unknown") else None
            expr = self.index.resolve(value, ref)
            text = STREAM_CONSTANTS.get(raw or "") or (expr.literal() if expr is not None else None)
            if provider == "stream" and text:
                expr = binding_channel(text)
            elif provider == "rabbitmq" and text and "/" in text:
                exchange, _, key = text.partition("/")
                expr = Expr((Lit(exchange or key),))
            if expr is None or not expr.parts or text == "":
                continue
            self.messages.append(handler_message(ref, "publishes", expr, provider, "SendTo", ann[2], m["end"], None))

    def _dapr_topic(self, ref: ClassRef, m: dict[str, Any]) -> list[tuple[str, str]]:
        """Dapr's ``@Topic(name = "orders", pubsubName = "bus")`` (io.dapr) on a handler consumes
        the topic on that pub/sub component (its broker from the component YAML, ``dapr.apply``)."""
        if not any(imp.startswith(_DAPR_IMPORTS) for imp in ref.file.get("imports", ())):
            return []
        out: list[tuple[str, str]] = []
        for ann in (a for a in m["anns"] if a[0] == "Topic" and a[1].get("name")):
            topic = self.index.resolve(ann[1]["name"][0], ref)
            bus = self.index.resolve(ann[1]["pubsubName"][0], ref) if ann[1].get("pubsubName") else None
            if topic is None or not topic.parts:
                continue
            self._consume(ref, m, topic, PROVIDER_PREFIX + component_label(bus), ann[2])
            out.append((m["name"], f"{ref.name}.{m['name']}"))
        return out

    def _consume(self, ref: ClassRef, m: dict[str, Any], channel: Expr, provider: str, line: int) -> None:
        self.apis.append(message_api(ref, m, channel, provider, self.framework, line))
        handler = f"{ref.name}.{m['name']}"
        self.messages.append(handler_message(ref, "consumes", channel, provider, "listener", line, m["end"], handler))

    def _function_bean(self, ref: ClassRef, m: dict[str, Any]) -> list[tuple[str, str]]:
        kind = simple_type(m["ret"])
        directions = STREAM_FUNCTION_TYPES.get(kind)
        if directions is None:
            return []
        bean = next(a for a in m["anns"] if a[0] == "Bean")
        names = [
            v[0][1]
            for v in ann_values(bean, "name", "value")
            if isinstance(v, list) and v and v[0][0] == "lit"
        ]
        name = names[0] if names else m["name"]
        out = []
        if "in" in directions:
            self._consume(ref, m, binding_channel(f"{name}-in-0"), "stream", bean[2])
            out.append((m["name"], f"{ref.name}.{m['name']}"))
        if "out" in directions:
            self.messages.append(
                RawMessage(
                    direction="publishes",
                    channel=binding_channel(f"{name}-out-0"),
                    provider="stream",
                    file=ref.path,
                    line=m["line"],
                    end_line=m["end"],
                    client="function-bean",
                    api_handler=f"{ref.name}.{m['name']}" if "in" in directions else None,
                    component=ref.name,
                )
            )
        return out

    def site(self, ref: ClassRef, method: str, site: dict[str, Any], handlers: list[str]) -> None:
        channel = self.index.resolve(site["channel"], ref) or Expr((Lit(""),))
        provider = site["provider"]
        if "via" in site:  # Dapr: the pub/sub component the site names
            provider = PROVIDER_PREFIX + component_label(self.index.resolve(site["via"], ref))
        base = RawMessage(
            direction=site["dir"],
            channel=channel,
            provider=provider,
            file=ref.path,
            line=site["line"],
            end_line=site["end"],
            client=site["client"],
            component=ref.name,
        )
        if has_param(channel):
            self.templates.append((ref, method, base))
        if not handlers:
            self.messages.append(base)
        for h in handlers:
            self.messages.append(evolve(base, api_handler=h))
