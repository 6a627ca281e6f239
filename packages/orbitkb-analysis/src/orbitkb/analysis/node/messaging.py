"""Messaging recognisers: kafkajs, amqplib, AWS SQS/SNS, NATS, Redis, MQTT.js, the Dapr SDK's
pub/sub, NestJS ClientProxy."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from ..dapr.apply import PROVIDER_PREFIX
from . import amqp_bindings, rmq_queues
from .signatures import (
    AMQP_LINK_KEYS,
    AWS_COMMANDS,
    AWS_V2_METHODS,
    MESSAGE_METHODS,
    NEST_CLIENT_TYPES,
    NEST_TRANSPORTS,
    PROVIDER_LABELS,
)
from .syntax import args_of, dotted, lines, object_pairs, string_value, text, unwrap
from .values import fold, literal, resolve_binding

if TYPE_CHECKING:
    from .extractor import Extractor

_CHANNEL_NODES = frozenset(
    {"string", "template_string", "binary_expression", "identifier", "member_expression"}
)


def _add(
    ex: Extractor, node: Node, direction: str, channel: list[Any], provider: str, client: str, **extra: Any
) -> None:
    if not channel:
        return
    record = {"dir": direction, "channel": channel, "provider": provider, "client": client, **extra}
    ex.out["messages"].append({**record, **ex.where(node)})


def pattern_parts(ex: Extractor, node: Node | None) -> list[Any]:
    """A NestJS pattern: a string, or an object serialized the way Nest does (`{"cmd":"sum"}`)."""
    node = unwrap(node)
    if node is None:
        return []
    if node.type == "object":
        values = {}
        for key, value in object_pairs(node).items():
            lit = literal(fold(value, ex.scope))
            values[key] = lit if lit is not None else text(value)
        return [["lit", json.dumps(values, sort_keys=True, separators=(",", ":"))]]
    return fold(node, ex.scope)


def transport_of(node: Node | None) -> str | None:
    """`Transport.KAFKA` (or an options object holding `transport:`) -> "kafka"."""
    node = unwrap(node)
    if node is None:
        return None
    if node.type == "object":
        return transport_of(object_pairs(node).get("transport"))
    name = dotted(node) or ""
    return NEST_TRANSPORTS.get(name.rsplit(".", 1)[-1]) if name.startswith("Transport.") else None


def on_new(ex: Extractor, node: Node, name: str, args: list[Node]) -> bool:
    spec = AWS_COMMANDS.get(name.rsplit(".", 1)[-1])
    if spec is None or not args:
        return False
    direction, provider, key = spec
    value = object_pairs(args[0]).get(key)
    if value is not None:
        _add(ex, node, direction, fold(value, ex.scope), provider, "aws-sdk")
    return True


def client_binding(ex: Extractor, call: Node) -> dict[str, Any] | None:
    """`ClientProxyFactory.create({ transport })` -> a NestJS client object with its provider."""
    callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
    if (dotted(callee) or "").endswith("ClientProxyFactory.create"):
        args = args_of(call)
        queue = rmq_queues.queue_of(ex, args[0]) if args else None
        provider = transport_of(args[0]) if args else None
        return {"k": "obj", "t": "nest_client", "provider": provider, **(queue or {})}
    return None


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    first = unwrap(args[0]) if args else None
    if first is None:
        return False
    if prop == "assertQueue":
        amqp_bindings.note_server_named(ex, node, args)
        return False
    if prop in ("bindQueue", "consume") and amqp_bindings.on_queue_use(ex, node, prop, args):
        return True
    if prop in ("register", "registerAsync") and (dotted(receiver) or "").endswith("ClientsModule"):
        return _clients_module(ex, first)
    if first.type == "object":
        return _object_call(ex, node, prop, receiver, first, args)
    if prop in ("emit", "send") and _nest_client(ex, node, prop, receiver, args):
        return True
    if prop in KAFKAJS_RECORD_METHODS and "kafka" in ex.providers and _record_param(ex, node, prop, first):
        return True
    if first.type not in _CHANNEL_NODES:
        return False
    providers = sorted(p for p in ex.providers if p in MESSAGE_METHODS)
    if not providers and prop == "sendToQueue":
        providers = ["rabbitmq"]
    if not providers and prop == "publish" and len(args) >= 3 and "ch" in (dotted(receiver) or "").lower():
        providers = ["rabbitmq"]
    for provider in providers:
        spec = MESSAGE_METHODS[provider].get(prop)
        if spec is None:
            continue
        direction, index = spec
        label = PROVIDER_LABELS.get(provider, provider)
        if provider == "dapr":  # the pub/sub component names the broker (dapr.apply)
            if len(args) <= index or not (dotted(receiver) or "").endswith("pubsub"):
                continue
            label = PROVIDER_PREFIX + (literal(fold(args[0], ex.scope)) or "")
        if provider == "rabbitmq" and prop == "publish":
            if len(args) < 3:
                continue
            exchange = fold(args[0], ex.scope)
            channel = fold(args[1], ex.scope) if literal(exchange) == "" else exchange
        elif provider == "redis" and prop == "publish" and len(args) < 2:
            continue
        elif index < 0:
            channel = _after_streams(ex, args)
        else:
            channel = fold(args[index], ex.scope)
        _add(ex, node, direction, channel, label, provider)
        return True
    return False


def _after_streams(ex: Extractor, args: list[Node]) -> list[Any]:
    for i, arg in enumerate(args[:-1]):
        if (string_value(arg) or "").upper() == "STREAMS":
            return fold(args[i + 1], ex.scope)
    return []


#: kafkajs calls taking one record object (``producer.send({ topic, messages })``,
#: ``consumer.subscribe({ topics })``) -> direction
KAFKAJS_RECORD_METHODS = {"send": "publishes", "subscribe": "consumes"}
#: keys of a record object naming its topic, as a call site of a wrapper hands it over
RECORD_TOPIC_KEYS = ("topic", "topics")


def _record_param(ex: Extractor, node: Node, prop: str, first: Node) -> bool:
    """``send(record)`` / ``subscribe(topics)`` inside a project's kafkajs wrapper whose parameter is
    the whole record: the topic is the one each call site's record names (message_wrappers)."""
    binding = ex.scope.lookup(text(first)) if first.type == "identifier" else None
    if binding is None or binding.get("k") != "param":
        return False
    _add(ex, node, KAFKAJS_RECORD_METHODS[prop], fold(first, ex.scope), "kafka", "kafkajs")
    return True


def record_topic(ex: Extractor, arg: Node) -> list[Any] | None:
    """The topic an object argument names (``{ topic: "orders" }``, ``{ topics: ["orders"] }``):
    what it stands for when a wrapper's parameter is a kafkajs record."""
    topics = record_topics(ex, arg)
    return topics[0] if len(topics) == 1 else None


def record_topics(ex: Extractor, arg: Node) -> list[list[Any]]:
    """Every topic an object argument names, one per item of ``{ topics: ["a", "b"] }``."""
    pairs = object_pairs(arg)
    value = next((unwrap(pairs[k]) for k in RECORD_TOPIC_KEYS if k in pairs), None)
    if value is None:
        return []
    items = [c for c in value.named_children if c.type != "comment"] if value.type == "array" else [value]
    return [fold(item, ex.scope) for item in items]


def _object_call(ex: Extractor, node: Node, prop: str, receiver: Node, first: Node, args: list[Node]) -> bool:
    pairs = object_pairs(first)
    if prop in ("send", "sendBatch") and "topic" in pairs:
        _add(ex, node, "publishes", fold(pairs["topic"], ex.scope), "kafka", "kafkajs")
        return True
    if prop == "subscribe" and ("topic" in pairs or "topics" in pairs):
        if "topic" in pairs:
            _add(ex, node, "consumes", fold(pairs["topic"], ex.scope), "kafka", "kafkajs")
        else:
            topics = unwrap(pairs["topics"])
            items = topics.named_children if topics is not None and topics.type == "array" else []
            for item in items:
                _add(ex, node, "consumes", fold(item, ex.scope), "kafka", "kafkajs")
            if topics is not None and topics.type in ("identifier", "member_expression", "shorthand_property_identifier"):
                _add(ex, node, "consumes", fold(topics, ex.scope), "kafka", "kafkajs")  # `{ topics }`
        return True
    aws = AWS_V2_METHODS.get(prop)
    if aws is not None and aws[2] in pairs:
        _add(ex, node, aws[0], fold(pairs[aws[2]], ex.scope), aws[1], "aws-sdk")
        return True
    if prop == "publish" and "TopicArn" in pairs:
        _add(ex, node, "publishes", fold(pairs["TopicArn"], ex.scope), "sns", "aws-sdk")
        return True
    if prop == "create" and "queueUrl" in pairs and (dotted(receiver) or "").endswith("Consumer"):
        _add(ex, node, "consumes", fold(pairs["queueUrl"], ex.scope), "sqs", "sqs-consumer")
        return True
    if prop in ("emit", "send") and _nest_client(ex, node, prop, receiver, args):
        return True
    return _amqp_link(ex, node, prop, pairs)


def _amqp_link(ex: Extractor, node: Node, prop: str, pairs: dict[str, Node]) -> bool:
    """An AMQP 1.0 link opened with options: `{ target: { address } }` / `{ source: "orders" }`."""
    spec = MESSAGE_METHODS["amqp-1.0"].get(prop) if "amqp-1.0" in ex.providers else None
    where = pairs.get(AMQP_LINK_KEYS[spec[0]]) if spec is not None else None
    if spec is None or where is None:
        return False
    inner = unwrap(where)
    address = object_pairs(inner).get("address") if inner is not None and inner.type == "object" else where
    if address is None:
        return False
    _add(ex, node, spec[0], fold(address, ex.scope), PROVIDER_LABELS["amqp-1.0"], "rhea")
    return True


def _nest_client(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    name = dotted(receiver)
    binding = resolve_binding(name, ex.scope) if name else None
    if binding is None:
        return False
    provider = binding.get("provider")
    token = binding.get("token")
    if binding.get("t") != "nest_client" and binding.get("name") not in NEST_CLIENT_TYPES:
        return False
    channel = pattern_parts(ex, args[0]) if args else []
    queue = {k: binding[k] for k in ("queue", "options_of") if k in binding}  # rmq_queues
    _add(ex, node, "publishes", channel, provider or "unknown", f"nestjs-{prop}", token=token, **queue)
    return True


def _factory_result(node: Node | None) -> Node | None:
    """The object a `useFactory: (config) => ({ ... })` (or `{ return { ... } }`) returns."""
    node = unwrap(node)
    if node is None or node.type not in ("arrow_function", "function_expression", "method_definition"):
        return None
    body = unwrap(node.child_by_field_name("body"))
    if body is not None and body.type == "statement_block":
        found = [c for c in body.named_children if c.type == "return_statement" and c.named_children]
        body = unwrap(found[-1].named_children[0]) if found else None
    return body if body is not None and body.type == "object" else None


def _clients_module(ex: Extractor, first: Node) -> bool:
    """`ClientsModule.register([{ name: "ORDERS", transport: Transport.KAFKA, options: { queue } }])`,
    `registerAsync([{ name, useFactory: (config) => ({ transport, options }) }])` or
    `registerAsync({ clients: [...] })`: the transport per client token, and the RMQ queue."""
    if first.type == "object" and "clients" in object_pairs(first):
        first = unwrap(object_pairs(first)["clients"]) or first
    items = first.named_children if first.type == "array" else [first]
    for item in items:
        pairs = object_pairs(item)
        made = object_pairs(_factory_result(pairs.get("useFactory")))
        transport = pairs.get("transport") or made.get("transport")
        provider = transport_of(transport)
        name = fold(pairs["name"], ex.scope) if "name" in pairs else []
        token = literal(name)
        if provider and token:
            ex.out["transports"][token] = provider
        elif provider and name:  # a constant from another module: the linker resolves it
            ex.out.setdefault("transport_refs", []).append([name, text(pairs["name"]), provider])
        elif provider:
            ex.out["transports"].setdefault("*", provider)
        found = rmq_queues.queue_of(ex, item)
        if found is not None:
            written = text(pairs["name"]) if "name" in pairs else None
            record = {"token": name, "token_text": written, **found}
            ex.out.setdefault("rmq_clients", []).append(record)
        queue = object_pairs(pairs.get("options") or made.get("options")).get("queue")
        if queue is not None:
            record = {"token": name, "queue": fold(queue, ex.scope), "line": lines(queue)[0]}
            ex.out.setdefault("client_queues", []).append(record)
    return True
