"""Outbound (and hand-written inbound) messaging sites: Kafka, Rabbit, JMS, Stream, SQS/SNS, Redis, NATS,
Hazelcast topics and queues."""

from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING

from orbitkb.analysis.jvm.evaluate import Parts, dotted, evaluate, literal_text
from orbitkb.analysis.jvm.syntax import Arr, Call, E, Lam, Name, walk
from orbitkb.analysis.jvm.tables import (
    AWS_CHANNEL_SETTERS,
    HAZELCAST_IMPORT,
    HAZELCAST_STRUCTURES,
    IMPORT_HINTS,
    JMS_DESTINATION_FACTORIES,
    JMS_DESTINATION_USES,
    JMS_IMPORTS,
    KAFKA_STREAMS_DSL,
    KAFKA_STREAMS_IMPORT,
    LISTENER_CONTAINER_IMPORTS,
    LISTENER_CONTAINERS,
    PUBLISHERS,
)

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.walking import Walker

_ALL_METHODS = {m for _p, methods in PUBLISHERS.values() for m in methods}
_CONTAINER_SETTERS = {m for _p, setters in LISTENER_CONTAINERS.values() for m in setters}
_CONSUMER_TYPES = {
    "KafkaConsumer": "kafka",
    "Consumer": "kafka",
    "ReactiveKafkaConsumerTemplate": "kafka",
    "PubSubCommands": "redis",  # Quarkus Redis: subscribe(channel, handler)
    "ReactivePubSubCommands": "redis",
}


def stream_binding(binding: str) -> Parts:
    """A Spring Cloud Stream binding: its destination is configuration, defaulting to its name."""
    return [["prop", f"spring.cloud.stream.bindings.{binding}.destination", binding]]


def detect(w: Walker, call: Call) -> None:
    if call.name in KAFKA_STREAMS_DSL and call.args and _kafka_streams(w, call):
        return
    if call.name in JMS_DESTINATION_USES and call.args and _jms_destination(w, call):
        return
    if call.recv is not None and _hazelcast(w, call):
        return
    if call.name == "subscribe" and call.args:
        _subscribe(w, call)
        return
    if call.args and (call.name in _CONTAINER_SETTERS or (call.new_ and call.name in LISTENER_CONTAINERS)):
        _container(w, call)
        return
    if call.name not in _ALL_METHODS or call.recv is None or not call.args:
        return
    rtype = w.recv_type(call.recv) or ""
    # an untyped receiver's ``send`` is the template the file imports; a receiver of a declared type
    # of its own (``KafkaService``, a project's wrapper) is that type's method, read as a wrapper
    if not rtype and call.name in ("convertAndSend", "send"):
        rtype = next(
            (t for prefix, t in IMPORT_HINTS if any(i.startswith(prefix) for i in w.ctx.imports)), rtype
        )
    if rtype not in PUBLISHERS:
        return
    provider, methods = PUBLISHERS[rtype]
    if call.name not in methods:
        return
    channel = _channel(w, call, provider)
    if channel is None:
        return
    site = {"k": "msg", "dir": "publishes", "provider": provider, "channel": channel, "client": rtype,
            "line": call.line, "end": call.end}  # fmt: skip
    if provider == "dapr":  # the pub/sub component, resolved when linked (messages.MessageBuilder.site)
        site["via"] = evaluate(call.args[0], w.scope)
    w.add(site)


def _channel(w: Walker, call: Call, provider: str) -> Parts | None:
    args = call.args
    if provider == "kafka":
        return _kafka_topic(w, args[0])
    if provider == "rabbitmq":
        if len(args) >= 3:
            exchange = evaluate(args[0], w.scope)
            return evaluate(args[1], w.scope) if literal_text(exchange) == "" else exchange
        return evaluate(args[0], w.scope) if len(args) == 2 else None
    if provider in ("jms", "redis", "nats"):
        return evaluate(args[0], w.scope) if len(args) >= 2 else None
    if provider == "stream":
        value = evaluate(args[0], w.scope)
        text = literal_text(value)
        return stream_binding(text) if text else value
    if provider in ("sqs", "sns"):
        return _aws_channel(w, args)
    if provider == "dapr":
        return evaluate(args[1], w.scope) if len(args) >= 3 else None
    return None


def _made_by(w: Walker, node: E | None, factories: Container[str]) -> Call | None:
    """The ``factory(name)`` call a value is (directly or through a local variable), if any."""
    if isinstance(node, Name) and node.id in w.scope.local_exprs:
        node = w.scope.local_exprs[node.id]
    if isinstance(node, Call) and not node.new_ and node.name in factories and node.args:
        return node
    return None


def _jms_destination(w: Walker, call: Call) -> bool:
    """``ctx.createProducer().send(ctx.createQueue(name), m)`` / ``ctx.createConsumer(ctx.createTopic(t))``."""
    if not any(i.startswith(JMS_IMPORTS) for i in w.ctx.imports):
        return False
    made = _made_by(w, call.args[0], JMS_DESTINATION_FACTORIES)
    if made is None:
        return False
    w.add({"k": "msg", "dir": JMS_DESTINATION_USES[call.name], "provider": "jms",
           "channel": evaluate(made.args[0], w.scope), "client": "JMSContext", "line": call.line, "end": call.end})  # fmt: skip
    return True


def _hazelcast(w: Walker, call: Call) -> bool:
    """``hz.getTopic(name).publish(m)`` / ``topic.addMessageListener(l)`` / ``hz.getQueue(q).offer(m)``."""
    if not any(i.startswith(HAZELCAST_IMPORT) for i in w.ctx.imports):
        return False
    made = _made_by(w, call.recv, HAZELCAST_STRUCTURES)
    direction = HAZELCAST_STRUCTURES[made.name].get(call.name) if made is not None else None
    if made is None or direction is None:
        return False
    w.add({"k": "msg", "dir": direction, "provider": "hazelcast", "channel": evaluate(made.args[0], w.scope),
           "client": "Hazelcast", "line": call.line, "end": call.end})  # fmt: skip
    return True


def _kafka_topic(w: Walker, arg: E) -> Parts:
    """send(topic, ..) / send(new ProducerRecord(topic, ..)) / send(MessageBuilder..setHeader(TOPIC, t))."""
    if isinstance(arg, Name) and arg.id in w.scope.local_exprs:
        inner = w.scope.local_exprs[arg.id]
        if isinstance(inner, Call):
            arg = inner
    if isinstance(arg, Call):
        for node in walk(arg):
            if isinstance(node, Call):
                if node.new_ and node.name in ("ProducerRecord", "SenderRecord") and node.args:
                    return evaluate(node.args[0], w.scope)
                if (
                    node.name == "setHeader"
                    and len(node.args) >= 2
                    and (dotted(node.args[0]) or "").endswith("TOPIC")
                ):
                    return evaluate(node.args[1], w.scope)
    return evaluate(arg, w.scope)


def _aws_channel(w: Walker, args: list[E]) -> Parts:
    """SDK v2 builders (``.queueUrl(x)`` / ``.topicArn(x)``, also in a lambda) or v1 positional URLs."""
    first = args[0]
    if isinstance(first, Name) and first.id in w.scope.local_exprs:
        first = w.scope.local_exprs[first.id]
    if isinstance(first, (Call, Lam)):
        for node in walk(first):
            if isinstance(node, Call) and node.name in AWS_CHANNEL_SETTERS and node.args:
                return evaluate(node.args[0], w.scope)
            if isinstance(node, Call) and node.new_ and node.name.endswith("Request") and node.args:
                return evaluate(node.args[0], w.scope)
    return evaluate(args[0], w.scope)


def _container(w: Walker, call: Call) -> None:
    """``container.setQueueNames("a", "b")`` / ``new ContainerProperties("topic")``: a listener
    container wired in code consumes its channels."""
    rtype = call.name if call.new_ else (w.recv_type(call.recv) or "")
    if rtype not in LISTENER_CONTAINERS:
        return
    provider, setters = LISTENER_CONTAINERS[rtype]
    if ("<init>" if call.new_ else call.name) not in setters:
        return
    if provider is None:
        imports = w.ctx.imports
        provider = next(
            (p for prefix, p in LISTENER_CONTAINER_IMPORTS if any(i.startswith(prefix) for i in imports)),
            None,
        )
        if provider is None:
            return
    for arg in call.args:
        if not isinstance(arg, (Arr, Lam)):
            w.add(
                {
                    "k": "msg",
                    "dir": "consumes",
                    "provider": provider,
                    "channel": evaluate(arg, w.scope),
                    "client": rtype,
                    "line": call.line,
                    "end": call.end,
                }
            )


def _kafka_streams(w: Walker, call: Call) -> bool:
    """Kafka Streams topology: ``builder.stream("orders")`` / ``table`` / ``globalTable`` read a
    topic, ``.to("orders")`` / ``.through(t)`` write one. Only in a file using Kafka Streams, and
    only with a topic name (a string, or constants folding to one) as the first argument."""
    if not any(i.startswith(KAFKA_STREAMS_IMPORT) for i in w.ctx.imports):
        return False
    if isinstance(call.args[0], Lam) or call.recv is None:
        return False
    channel = evaluate(call.args[0], w.scope)
    kinds = {p[0] for p in channel}
    if kinds - {"lit", "ref", "prop"} or not any(p[0] != "lit" or p[1] for p in channel):
        return False  # a parameter, a call result, an empty string: not a topic name
    w.add(
        {
            "k": "msg",
            "dir": KAFKA_STREAMS_DSL[call.name],
            "provider": "kafka",
            "channel": channel,
            "client": "KafkaStreams",
            "line": call.line,
            "end": call.end,
        }
    )
    return True


def _subscribe(w: Walker, call: Call) -> None:
    rtype = w.recv_type(call.recv) or ""
    provider = _CONSUMER_TYPES.get(rtype)
    if provider is None:
        return
    arg = call.args[0]
    items = (
        arg.items
        if isinstance(arg, Arr)
        else (
            arg.args
            if isinstance(arg, Call) and arg.name in ("of", "asList", "singletonList", "listOf")
            else [arg]
        )
    )
    for item in items:
        w.add(
            {
                "k": "msg",
                "dir": "consumes",
                "provider": provider,
                "channel": evaluate(item, w.scope),
                "client": rtype,
                "line": call.line,
                "end": call.end,
            }
        )
