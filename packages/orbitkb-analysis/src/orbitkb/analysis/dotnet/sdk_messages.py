"""Messages and state a .NET service reaches through the Dapr SDK, MQTTnet, DotNetCore.CAP and
MassTransit's Kafka rider.

Dapr (``Dapr.Client`` / ``Dapr.AspNetCore``): ``PublishEventAsync("bus", "orders", e)`` publishes the
topic ``orders`` on the pub/sub component ``bus`` (its broker comes from the component YAML,
``dapr.apply``); ``[Topic("bus", "orders")]`` on an action and ``.WithTopic("bus", "orders")`` on a
minimal-API endpoint consume it; ``InvokeBindingAsync("queue", "create", …)`` writes to an output
binding (its channel and broker come from the binding's YAML); ``SaveStateAsync<T>("store", …)`` and
friends keep ``T`` in the state store ``store``. MQTTnet: the topic of an application message
(``new MqttApplicationMessageBuilder().WithTopic("a/b")``) is published, a topic filter given to
``SubscribeAsync`` (or built with ``MqttTopicFilterBuilder``) is consumed. CAP: ``ICapPublisher``'s
``PublishAsync("name", …)`` publishes and ``[CapSubscribe("name")]`` consumes the message name on the
broker its setup uses (``x.UseRabbitMQ(…)``). MassTransit's Kafka rider: ``AddProducer<T>("topic")``
and ``TopicEndpoint<T>("topic", "group", …)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.dapr.apply import BINDING_PREFIX, FRAMEWORK, PROVIDER_PREFIX
from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.facts import Expr, RawEntity, RawMessage

#: Dapr client methods -> (pub/sub or binding or store argument name, channel argument name).
DAPR_PUBLISH = {"PublishEventAsync": ("pubsubName", "topicName"), "PublishByteEventAsync": ("pubsubName", "topicName"),
                "BulkPublishEventAsync": ("pubsubName", "topicName")}  # fmt: skip
DAPR_BINDING = frozenset({"InvokeBindingAsync"})
DAPR_STATE = frozenset({
    "SaveStateAsync", "TrySaveStateAsync", "GetStateAsync", "GetStateEntryAsync", "GetStateAndETagAsync",
    "DeleteStateAsync", "TryDeleteStateAsync", "GetBulkStateAsync", "SaveBulkStateAsync", "DeleteBulkStateAsync",
    "ExecuteStateTransactionAsync", "QueryStateAsync",
})  # fmt: skip
#: Attributes and endpoint conventions that subscribe a handler to a Dapr topic.
DAPR_SUBSCRIBE = frozenset({"Topic", "BulkSubscribe"})
#: MQTTnet builders and calls: method -> direction (the topic is the first argument).
MQTT_TOPIC_BUILDERS = {"MqttApplicationMessageBuilder": "publishes", "MqttTopicFilterBuilder": "consumes",
                       "MqttClientSubscribeOptionsBuilder": "consumes"}  # fmt: skip
MQTT_SUBSCRIBE = frozenset({"SubscribeAsync"})
#: DotNetCore.CAP: publisher methods (the message name first) and the transport its setup picks.
CAP_PUBLISH = frozenset({"Publish", "PublishAsync", "PublishDelay", "PublishDelayAsync"})
CAP_TRANSPORTS = {"UseRabbitMQ": "rabbitmq", "UseKafka": "kafka", "UseAzureServiceBus": "azure-servicebus",
                  "UseAmazonSQS": "sqs", "UseNATS": "nats", "UseRedis": "redis", "UsePulsar": "pulsar",
                  "UseInMemoryMessageQueue": "inmemory"}  # fmt: skip
#: MassTransit's Kafka rider: ``r.AddProducer<T>("topic")`` produces, ``k.TopicEndpoint<T>("topic", …)`` consumes.
RIDER_KAFKA = {"AddProducer": "publishes", "TopicEndpoint": "consumes"}


def _arg(site_args: list[Mapping[str, Any]], pos: int, name: str) -> Mapping[str, Any] | None:
    for a in site_args:
        if a.get("nm") == name:
            return a
    positional = [a for a in site_args if not a.get("nm")]
    return positional[pos] if pos < len(positional) else None


class SdkMessages:
    """The Dapr and MQTTnet messages and Dapr state stores of one service's own files (``own``)."""

    def __init__(self, index: ServiceIndex, own: set[str]) -> None:
        self.index = index
        self.own = own
        self.dapr = index.uses("Dapr")
        self.mqtt = index.uses("MQTTnet")
        self.cap = index.uses("DotNetCore.CAP")
        self.rider = index.uses("MassTransit")
        self._cap_transport: str | None = None

    def _expr(self, arg: Mapping[str, Any] | None, owner: str | None) -> Expr | None:
        if arg is None or "v" not in arg:
            return None
        return self.index.expr(arg["v"], owner)

    def _msg(self, site: Site, direction: str, channel: Expr, provider: str, client: str) -> RawMessage:
        return RawMessage(direction, channel, provider, site.file, site.line, int(site.data.get("e", site.line)),
                          client=client, component=site.owner.name if site.owner else None)  # fmt: skip

    def messages(self) -> list[RawMessage]:
        out: list[RawMessage] = []
        for site in self.index.sites():
            if site.file not in self.own:
                continue
            if self.dapr:
                out += self._dapr_call(site)
            if self.mqtt:
                out += self._mqtt_call(site)
            if self.cap:
                out += self._cap_call(site)
            if self.rider:
                out += self._rider_call(site)
        if self.dapr:
            out += self._dapr_attributes()
        if self.cap:
            out += self._cap_attributes()
        return out

    def _cap_provider(self) -> str:
        """The broker CAP's setup names (``services.AddCap(x => x.UseRabbitMQ(...))``), else unknown."""
        if self._cap_transport is None:
            found = {CAP_TRANSPORTS[str(s.data.get("n"))] for s in self.index.sites() if s.data.get("n") in CAP_TRANSPORTS}
            self._cap_transport = found.pop() if len(found) == 1 else "unknown"
        return self._cap_transport

    def _cap_call(self, site: Site) -> list[RawMessage]:
        """``_capBus.PublishAsync("orders.created", order)`` on an ``ICapPublisher``."""
        d = site.data
        if d.get("n") not in CAP_PUBLISH:
            return []
        receiver_type = simple(str(d.get("rt") or ""))
        if receiver_type != "ICapPublisher" and not (not receiver_type and "cap" in str(d.get("r", "")).lower()):
            return []
        owner = site.owner.name if site.owner else None
        topic = self._expr(_arg(list(d.get("a") or ()), 0, "name"), owner)
        return [self._msg(site, "publishes", topic, self._cap_provider(), "cap")] if topic is not None else []

    def _cap_attributes(self) -> list[RawMessage]:
        """``[CapSubscribe("orders.created")]`` on a subscriber's method consumes that message name."""
        out: list[RawMessage] = []
        for ref in self.index.types:
            if ref.file not in self.own:
                continue
            for method in ref.data["m"]:
                for attr in method.get("a") or ():
                    if str(attr[0]).removesuffix("Attribute") != "CapSubscribe" or not attr[1]:
                        continue
                    topic = self._expr(_arg(attr[1], 0, "name"), ref.name)
                    if topic is not None:
                        site = Site(ref.file, {"l": attr[2], "e": attr[2]}, ref, method)
                        out.append(self._msg(site, "consumes", topic, self._cap_provider(), "cap"))
        return out

    def _rider_call(self, site: Site) -> list[RawMessage]:
        d = site.data
        direction = RIDER_KAFKA.get(str(d.get("n", "")))
        args = list(d.get("a") or ())
        if direction is None or not d.get("g") or not args or args[0].get("k") == "lambda_expression":
            return []
        owner = site.owner.name if site.owner else None
        topic = self._expr(_arg(args, 0, "topicName"), owner)
        return [self._msg(site, direction, topic, "kafka", "masstransit-rider")] if topic is not None else []

    def _dapr_call(self, site: Site) -> list[RawMessage]:
        d = site.data
        name, args, owner = d.get("n", ""), list(d.get("a") or ()), site.owner.name if site.owner else None
        if name in DAPR_PUBLISH or name in DAPR_BINDING:
            first, second = DAPR_PUBLISH.get(name, ("bindingName", "operation"))
            component = self._expr(_arg(args, 0, first), owner)
            label = component.literal() if component is not None else None
            if name in DAPR_BINDING:  # the channel is the binding's, known from its YAML only
                return (
                    [self._msg(site, "publishes", Expr.lit(label), BINDING_PREFIX + label, "dapr")]
                    if label
                    else []
                )
            topic = self._expr(_arg(args, 1, second), owner)
            return (
                [self._msg(site, "publishes", topic, PROVIDER_PREFIX + (label or ""), "dapr")]
                if topic
                else []
            )
        if (
            name == "WithTopic" and len(args) >= 2 and d.get("rt") is None
        ):  # app.MapPost(...).WithTopic("bus", "t")
            topic = self._expr(_arg(args, 1, "topicName"), owner)
            component = self._expr(_arg(args, 0, "pubsubName"), owner)
            label = component.literal() if component is not None else None
            return (
                [self._msg(site, "consumes", topic, PROVIDER_PREFIX + (label or ""), "dapr")] if topic else []
            )
        return []

    def _dapr_attributes(self) -> list[RawMessage]:
        out: list[RawMessage] = []
        for ref in self.index.types:
            if ref.file not in self.own:
                continue
            for method in ref.data["m"]:
                for attr in method.get("a") or ():
                    if str(attr[0]).removesuffix("Attribute") not in DAPR_SUBSCRIBE or len(attr[1]) < 2:
                        continue
                    topic = self._expr(_arg(attr[1], 1, "name"), ref.name)
                    component = self._expr(_arg(attr[1], 0, "pubsubName"), ref.name)
                    if topic is None:
                        continue
                    label = component.literal() if component is not None else None
                    site = Site(ref.file, {"l": attr[2], "e": attr[2]}, ref, method)
                    out.append(self._msg(site, "consumes", topic, PROVIDER_PREFIX + (label or ""), "dapr"))
        return out

    def _chain_type(self, site: Site) -> str:
        """The type a fluent chain starts from: ``new B().WithX().WithTopic(..)`` -> ``B``."""
        d: Mapping[str, Any] | None = site.data
        for _ in range(12):
            if d is None or d.get("rt") or "ri" not in d:
                break
            d = self.index.invocation(site.file, int(d["ri"]))
        return simple(str(d.get("rt") or "")) if d is not None else ""

    def _mqtt_call(self, site: Site) -> list[RawMessage]:
        d = site.data
        name, args, owner = d.get("n", ""), list(d.get("a") or ()), site.owner.name if site.owner else None
        direction = MQTT_TOPIC_BUILDERS.get(self._chain_type(site)) if name.startswith("WithTopic") else None
        if name in ("WithTopic", "WithTopicFilter") and direction is not None:
            topic = self._expr(_arg(args, 0, "topic"), owner)
        elif (
            name in MQTT_SUBSCRIBE
            and args
            and args[0].get("k") in ("string_literal", "identifier", "member_access_expression")
        ):
            direction, topic = "consumes", self._expr(args[0], owner)
            if topic is not None and topic.literal() is None:
                return []  # a subscribe-options object, not a topic: its builder is read instead
        else:
            return []
        return [self._msg(site, direction, topic, "mqtt", "mqttnet")] if topic is not None else []

    def entities(self) -> list[RawEntity]:
        """One key-value entity per Dapr state store the service's own code names, with the type kept."""
        if not self.dapr:
            return []
        found: dict[str, RawEntity] = {}
        for site in self.index.sites():
            d = site.data
            if site.file not in self.own or d.get("n") not in DAPR_STATE:
                continue
            owner = site.owner.name if site.owner else None
            store = self._expr(_arg(list(d.get("a") or ()), 0, "storeName"), owner)
            name = store.literal() if store is not None else None
            if not name:
                continue
            kind = simple(d["g"][0]) if d.get("g") else None
            old = found.get(name)
            if old is None or (old.class_name is None and kind):
                found[name] = RawEntity(name, "key_value", site.file, site.line, int(d.get("e", site.line)),
                                        class_name=kind, framework=FRAMEWORK)  # fmt: skip
        return list(found.values())
