"""Messages a .NET service publishes and consumes: MassTransit (``Publish``/``Send`` of a message
type, ``IConsumer<T>``; the channel is the message type, as MassTransit names its exchanges),
Confluent.Kafka (``ProduceAsync(topic, …)``, ``Subscribe(topic)``), RabbitMQ.Client
(``BasicPublish``/``BasicConsume``), EasyNetQ and RawRabbit (``dotnet.easynetq``, ``dotnet.rawrabbit``),
NServiceBus and Rebus (``dotnet.handlerbus``),
Azure Service Bus (``CreateSender``/``CreateProcessor``) and Redis lists as work queues
(``dotnet.redislists``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import attrs

from orbitkb.analysis.dotnet.easynetq import EasyNetQ
from orbitkb.analysis.dotnet.handlerbus import LIBRARIES, HandlerBus
from orbitkb.analysis.dotnet.index import ServiceIndex, Site, TypeRef, generic_args, simple
from orbitkb.analysis.dotnet.liveness import Liveness
from orbitkb.analysis.dotnet.rawrabbit import RawRabbit
from orbitkb.analysis.dotnet.redislists import list_messages
from orbitkb.analysis.dotnet.tables import (
    KAFKA_PRODUCE,
    MASSTRANSIT_SEND,
    RABBIT_BIND,
    RABBIT_CONSUME,
    RABBIT_PUBLISH,
    SERVICE_BUS_RECEIVER,
    SERVICE_BUS_SENDER,
)
from orbitkb.analysis.facts import Expr, RawMessage, Unknown

#: MassTransit transports -> provider.
TRANSPORTS = {"UsingRabbitMq": "rabbitmq", "UsingAzureServiceBus": "azure-servicebus", "UsingAmazonSqs": "sqs",
              "UsingKafka": "kafka", "UsingActiveMq": "activemq", "UsingInMemory": "inmemory"}  # fmt: skip
_BUS_TYPES = ("IPublishEndpoint", "IBus", "IBusControl", "ISendEndpoint", "ISendEndpointProvider",
              "IPublishEndpointProvider", "ConsumeContext")  # fmt: skip
_QUOTED = re.compile(r'"([^"\\]+)"')
#: parameter types that carry any message, so route none by its type
_PLAIN_TYPES = frozenset({"object", "Object", "dynamic", "string", "String", "byte", "ReadOnlyMemory"})
_NEW = re.compile(r"^new\s+([\w.]+)")


def _message_type(site: Site) -> str | None:
    d = site.data
    if d.get("g"):
        return simple(d["g"][0])
    args = d.get("a") or []
    if not args:
        return None
    if args[0].get("ty"):
        return simple(args[0]["ty"])
    m = _NEW.match(args[0].get("x", ""))
    return simple(m.group(1)) if m else None


def _named(idx: ServiceIndex, arg: Mapping[str, Any] | None, owner: str | None) -> bool:
    """True when an exchange argument names an exchange: a non-empty literal or a configured
    value (``""`` is the default exchange, which routes by the routing key)."""
    folded = idx.fold(arg["v"], owner) if arg and "v" in arg else []
    if not folded or all(p[0] == "unknown" for p in folded):
        return False
    return any(p[0] != "lit" or p[1] for p in folded)


def _default_exchange(idx: ServiceIndex, arg: Mapping[str, Any] | None, owner: str | None) -> bool:
    """True when an exchange argument is the default exchange (``""``, ``string.Empty``)."""
    return bool(arg and "v" in arg and idx.fold(arg["v"], owner) == [["lit", ""]])


def _reply_to(idx: ServiceIndex, arg: Mapping[str, Any] | None, owner: str | None) -> bool:
    """True when a routing key is the ``ReplyTo`` property of the message being answered."""
    folded = idx.fold(arg["v"], owner) if arg and "v" in arg else []
    return len(folded) == 1 and folded[0][0] == "unknown" and str(folded[0][1]).endswith("ReplyTo")


def _server_named(idx: ServiceIndex, arg: Mapping[str, Any] | None, owner: str | None) -> bool:
    """True when a queue argument is the name the broker gave a declared queue: ``QueueDeclare().QueueName``
    or a local / field holding ``declared.QueueName`` that folds to no configured or literal name."""
    folded = idx.fold(arg["v"], owner) if arg and "v" in arg else []
    return len(folded) == 1 and folded[0][0] == "unknown" and str(folded[0][1]).endswith(".QueueName")


class Messages:
    def __init__(self, index: ServiceIndex, own: set[str] | None = None) -> None:
        self.index = index
        self.own = own  # the service's own files (None: every file); the rest are referenced libraries
        self._by_name: dict[str, list[Site]] = {}  # invocations by method name, read once: wrappers look up callers
        for site in index.sites():
            self._by_name.setdefault(str(site.data.get("n", "")), []).append(site)
        found = [p for t, p in TRANSPORTS.items() if t in self._by_name]
        self._binds = [s for s in index.sites() if s.data.get("n") in RABBIT_BIND]  # in the order they are read
        self.transport = found[0] if found else "unknown"
        self._origin: dict[RawMessage, Site] = {}

    def _msg(
        self, site: Site, direction: str, channel: Expr | None, provider: str, client: str
    ) -> RawMessage | None:
        if channel is None:
            return None
        msg = RawMessage(direction, channel, provider, site.file, site.line, int(site.data.get("e", site.line)),
                         client=client, component=site.owner.name if site.owner else None)  # fmt: skip
        self._origin.setdefault(msg, site)
        return msg

    def _parameter(self, site: Site | None, channel: Expr) -> int | None:
        """The position of the enclosing method's parameter the channel is, when it is one."""
        if site is None or site.method is None or len(channel.parts) != 1:
            return None
        part = channel.parts[0]
        names = [str(p[1]) for p in site.method["ps"]]
        return names.index(part.hint) if isinstance(part, Unknown) and part.hint in names else None

    def _callers(self, site: Site, position: int, depth: int = 0) -> list[tuple[Site, Expr]]:
        """Where the service calls the wrapper method that sends on its ``position``-th parameter,
        with the channel each call passes (``bus.PublishAsync(msg, "orders")``), through wrappers of
        wrappers up to three deep."""
        method, owner = site.method, site.owner
        if method is None or owner is None or depth > 3:
            return []
        param = str(method["ps"][position][1])
        kinds = {owner.name, *(simple(b) for b in owner.data["b"])}
        out: list[tuple[Site, Expr]] = []
        for call in self._by_name.get(str(method["n"]), ()):
            d = call.data
            if d.get("rt") and simple(str(d["rt"])) not in kinds:
                continue
            if call.owner == owner and call.method is method:
                continue
            arg = call.arg(position, param)
            channel = self._channel(arg, call.owner.name if call.owner else None)
            if channel is None:
                continue
            again = self._parameter(call, channel)
            out += self._callers(call, again, depth + 1) if again is not None else [(call, channel)]
        return out

    def _through_wrappers(self, messages: list[RawMessage]) -> list[RawMessage]:
        """A send or receive whose channel is its method's parameter is the mechanism of a wrapper:
        the channels are the arguments its callers pass, at the callers. A wrapper in a referenced
        library that this service never calls is none of its messages."""
        out: list[RawMessage] = []
        for m in messages:
            site = self._origin.get(m)
            position = self._parameter(site, m.channel)
            if site is None or position is None:
                out.append(m)
                continue
            callers = self._callers(site, position)
            for call, channel in callers:
                out.append(attrs.evolve(m, channel=channel, file=call.file, line=call.line,
                                        end_line=int(call.data.get("e", call.line)),
                                        component=call.owner.name if call.owner else None))  # fmt: skip
            if not callers and (self.own is None or m.file in self.own):
                out.append(m)  # the service's own, never called here: kept with its expression
        return out

    def _channel(self, arg: Mapping[str, Any] | None, owner: str | None) -> Expr | None:
        if arg is None:
            return None
        if "v" in arg and not (len(arg["v"]) == 1 and arg["v"][0][0] == "unknown"):
            return self.index.expr(arg["v"], owner)
        names = _QUOTED.findall(arg.get("x", ""))
        return Expr.lit(names[0]) if names else None

    def _bound(self, site: Site, queue: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
        """The exchange a queue of the same type is bound to (``QueueBind(queue: q, exchange: x)``)."""
        if queue is None or site.owner is None:
            return None
        for bind in self._binds:
            q = bind.arg(0, "queue")
            if bind.owner == site.owner and q and q.get("x") == queue.get("x"):
                return bind.arg(1, "exchange")
        return None

    def all(self) -> list[RawMessage]:
        out: list[RawMessage | None] = []
        idx = self.index
        masstransit = idx.uses("MassTransit")
        kafka = idx.uses("Confluent.Kafka")
        rabbit = idx.uses("RabbitMQ.Client")
        bus = idx.uses("Azure.Messaging.ServiceBus", "Microsoft.Azure.ServiceBus")
        for site in idx.sites():
            d = site.data
            name = d.get("n", "")
            owner = site.owner.name if site.owner else None
            if masstransit and name in MASSTRANSIT_SEND:
                recv = simple(d.get("rt") or "")
                looks = recv in _BUS_TYPES or any(
                    w in str(d.get("r", "")).lower() for w in ("publish", "bus", "endpoint")
                )
                kind = _message_type(site)
                if looks and kind:
                    out.append(self._msg(site, "publishes", Expr.lit(kind), self.transport, "masstransit"))
            elif kafka and name in KAFKA_PRODUCE:
                out.append(
                    self._msg(
                        site,
                        "publishes",
                        self._channel(site.arg(0, "topic"), owner),
                        "kafka",
                        "confluent-kafka",
                    )
                )
            elif kafka and name == "Subscribe":
                arg = site.arg(0, "topics") or site.arg(0, "topic")
                for topic in _QUOTED.findall(arg.get("x", "")) if arg and "v" not in arg else []:
                    out.append(self._msg(site, "consumes", Expr.lit(topic), "kafka", "confluent-kafka"))
                if arg and "v" in arg:
                    out.append(
                        self._msg(site, "consumes", self._channel(arg, owner), "kafka", "confluent-kafka")
                    )
            elif rabbit and name in RABBIT_PUBLISH:
                exchange = site.arg(0, "exchange")
                key = site.arg(1, "routingKey")
                target = exchange if _named(idx, exchange, owner) or not _named(idx, key, owner) else key
                if key is not None and _default_exchange(idx, exchange, owner):
                    if _reply_to(idx, key, owner):
                        continue  # an RPC reply to the asker's queue (props.ReplyTo): no channel of its own
                    target = key  # the default exchange routes by the routing key, resolved or not
                out.append(
                    self._msg(site, "publishes", self._channel(target, owner), "rabbitmq", "rabbitmq-client")
                )
            elif rabbit and name in RABBIT_CONSUME:
                queue = site.arg(0, "queue")
                bound = self._bound(site, queue)
                if not _named(idx, queue, owner):  # a server-named queue is read as what it is bound to
                    if bound is None and _server_named(idx, queue, owner):
                        continue  # a reply queue the broker names (QueueDeclare().QueueName), bound to nothing
                    queue, bound = bound or queue, None
                out.append(self._msg(site, "consumes", self._channel(queue, owner), "rabbitmq", "rabbitmq-client"))
                if bound is not None and _named(idx, bound, owner):  # a named queue gets the exchange's messages
                    out.append(self._msg(site, "consumes", self._channel(bound, owner), "rabbitmq", "rabbitmq-client"))
            elif bus and name in SERVICE_BUS_SENDER:
                out.append(self._msg(site, "publishes", self._channel(site.arg(0, "queueOrTopicName"), owner),
                                     "azure-servicebus", "servicebus"))  # fmt: skip
            elif bus and name in SERVICE_BUS_RECEIVER:
                out.append(self._msg(site, "consumes", self._channel(site.arg(0, "queueName") or site.arg(0, "topicName"), owner),
                                     "azure-servicebus", "servicebus"))  # fmt: skip
        if masstransit:
            for ref in idx.types:
                for base in ref.data["b"]:
                    if simple(base) in ("IConsumer", "IJobConsumer") and generic_args(base):
                        kind = simple(generic_args(base)[0])
                        site = Site(ref.file, {"l": ref.data["l"], "e": ref.data["l"]}, ref, None)
                        out.append(self._msg(site, "consumes", Expr.lit(kind), self.transport, "masstransit"))
        if idx.uses("EasyNetQ"):
            out += EasyNetQ(idx, self._channel).messages(self._msg)
        if idx.uses("RawRabbit"):
            out += RawRabbit(idx).messages(self._msg)
        if idx.uses(*LIBRARIES):
            out += HandlerBus(idx).messages(self._msg)
        if idx.uses("StackExchange.Redis"):
            out += list_messages(idx, self._channel, self._msg)  # a Redis list as a work queue
        found = self._through_wrappers([m for m in out if m is not None])
        return Liveness(idx).keep(found, self.own)  # a library's unused parts are no messages of this service


#: Broker calls that make a class an event bus implementation -> the broker (most telling first).
BUS_BROKERS = (("BasicPublish", "rabbitmq"), ("BasicPublishAsync", "rabbitmq"), ("ProduceAsync", "kafka"),
               ("Produce", "kafka"), ("SendMessageAsync", "azure-servicebus"), ("SendMessagesAsync", "azure-servicebus"))  # fmt: skip


class EventBus:
    """A codebase's own event bus (``IEventBus.Publish(IntegrationEvent e)`` implemented over a
    broker client, ``Subscribe<TEvent, THandler>()``): every event type deriving from the bus's
    event base that the service creates is published, every ``Subscribe<T, …>`` consumes ``T``; the
    channel is the event type's name, as such buses route (the broker calls inside the bus itself
    are its mechanism, not channels of their own)."""

    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        brokers: dict[str, str] = {}  # bus class -> broker
        for site in index.sites():
            found = next((b for n, b in BUS_BROKERS if n == site.data.get("n")), None)
            if found and site.owner is not None:
                brokers.setdefault(site.owner.name, found)
        self.event_bases: set[str] = set()
        self.bus_types: set[str] = set()
        providers = []
        for ref in index.types:
            publish = [
                m for m in ref.data["m"] if m["n"] in ("Publish", "PublishAsync") and len(m["ps"]) == 1
            ]
            if ref.name in brokers and publish:
                kind, param = publish[0]["ps"][0]
                if kind in publish[0].get("tc", {}) and self._routes_by_type(ref, publish[0], param):
                    kind = publish[0]["tc"][kind]  # Publish<T>(T e) where T : Event, routed by e's type
                if self._no_event_base(simple(kind)):
                    continue  # Publish(object m): no event type to route by; its broker calls are the channels
                self.event_bases.add(simple(kind))
                self.bus_types |= {ref.name, *(simple(b) for b in ref.data["b"])}
                providers.append(brokers[ref.name])
        order = [b for _, b in BUS_BROKERS]
        self.provider = min(providers, key=order.index) if providers else "unknown"

    def _no_event_base(self, kind: str) -> bool:
        """True when a publish parameter's type routes no event types: ``object``/``string``, or a
        class of the codebase nothing derives from (``Publish(OrderPlaced e)`` of one message)."""
        if kind in _PLAIN_TYPES:
            return True
        declared = self.index.type(kind) is not None
        return declared and not any(simple(b) == kind for ref in self.index.types for b in ref.data["b"])

    def _routes_by_type(self, ref: TypeRef, method: Mapping[str, Any], param: str) -> bool:
        """True when a generic publish names its channel after the event's type (``e.GetType().Name``):
        a bus whose channel is a setting (one topic for every event) routes otherwise."""
        return any(
            site.owner is not None and site.owner.name == ref.name and site.method is not None
            and site.method["l"] == method["l"] and site.data.get("n") == "GetType" and site.data.get("r") == param
            for site in self.index.sites()
        )  # fmt: skip

    def implementations(self) -> set[str]:
        return {
            ref.name
            for ref in self.index.types
            if ref.name in self.bus_types and ref.data["k"] != "interface"
        }

    def _is_event(self, type_text: str, depth: int = 0) -> bool:
        name = simple(type_text)
        if name in self.event_bases:
            return False  # the base itself is never sent as such
        ref = self.index.type(name)
        for _ in range(6):
            if ref is None:
                return False
            if any(simple(b) in self.event_bases for b in ref.data["b"]):
                return True
            ref = self.index.type(ref.data["b"][0]) if ref.data["b"] else None
        return False

    def messages(self, own: set[str]) -> list[RawMessage]:
        if not self.event_bases:
            return []
        out = []
        for site in self.index.sites("new"):
            if site.file in own and self._is_event(site.data["ty"]):
                out.append(self._msg(site, "publishes", simple(site.data["ty"])))
        for site in self.index.sites():
            d = site.data
            generic = d.get("g") or []
            if site.file in own and d.get("n") in ("Subscribe", "SubscribeAsync") and len(generic) == 2:
                if self._is_event(generic[0]) or simple(d.get("rt") or "") in self.bus_types:
                    out.append(self._msg(site, "consumes", simple(generic[0])))
        return out

    def _msg(self, site: Site, direction: str, event: str) -> RawMessage:
        return RawMessage(direction, Expr.lit(event), self.provider, site.file, site.line,
                          int(site.data.get("e", site.line)), client="event-bus",
                          component=site.owner.name if site.owner else None)  # fmt: skip
