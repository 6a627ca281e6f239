"""Messages a .NET service sends and handles through a bus that routes by message type: NServiceBus
and Rebus.

A class implementing ``IHandleMessages<T>`` (or starting a saga with ``IAmStartedByMessages<T>``)
consumes ``T``; ``Send``, ``Publish`` and ``Reply`` of a message on the bus, the endpoint instance or
a handler's context publish it (``context.Publish(new OrderPlaced { … })``, ``session.Send(cmd)``,
``bus.Publish<OrderPlaced>(m => …)``). The channel is the message type, as both name their
exchanges and topics after it. ``SendLocal`` is a message to the service itself, no channel between
services. The provider is the transport the endpoint is configured with
(``UseTransport<RabbitMQTransport>()``, ``new AzureServiceBusTransport(…)``, Rebus
``t.UseRabbitMq(…)``), else ``unknown``.
"""

from __future__ import annotations

from orbitkb.analysis.dotnet.easynetq import Emit
from orbitkb.analysis.dotnet.index import ServiceIndex, Site, generic_args, simple
from orbitkb.analysis.facts import Expr, RawMessage

#: The libraries this reader covers: namespace -> client name.
LIBRARIES = {"NServiceBus": "nservicebus", "Rebus": "rebus"}
#: Handler interfaces whose type argument is the message handled.
HANDLES = frozenset({"IHandleMessages", "IAmStartedByMessages"})
#: Bus methods that put a message on the wire.
SENDS = frozenset({"Send", "Publish", "Reply", "SendAsync", "PublishAsync", "ReplyAsync"})
#: Receivers of those methods, by type; an untyped receiver must be named like one (``_session``).
BUS_TYPES = frozenset({"IMessageSession", "IEndpointInstance", "IMessageHandlerContext", "IPipelineContext",
                       "IUniformSession", "ITransactionalSession", "IBus", "ISyncBus"})  # fmt: skip
BUS_WORDS = ("context", "session", "endpoint", "bus")
#: Arguments of those methods that are options, never the message.
OPTIONS = frozenset({"SendOptions", "PublishOptions", "ReplyOptions", "string", "TimeSpan", "DateTimeOffset"})
#: Transports (a type argument or a created type for NServiceBus, a configuration call for Rebus) -> provider.
TRANSPORTS = {
    "RabbitMQTransport": "rabbitmq", "AzureServiceBusTransport": "azure-servicebus", "SqsTransport": "sqs",
    "SqlServerTransport": "sqlserver", "PostgreSqlTransport": "postgres", "LearningTransport": "learning",
    "AzureStorageQueueTransport": "azure-storage-queue",
    "UseRabbitMq": "rabbitmq", "UseAzureServiceBus": "azure-servicebus", "UseAmazonSQS": "sqs",
    "UseInMemoryTransport": "inmemory", "UsePostgreSql": "postgres", "UseAzureStorageQueues": "azure-storage-queue",
}  # fmt: skip


def _bus(site: Site) -> bool:
    if simple(str(site.data.get("rt", ""))) in BUS_TYPES:
        return True
    receiver = str(site.data.get("r", "")).rsplit(".", 1)[-1].lower()
    return any(word in receiver for word in BUS_WORDS)


def _message(site: Site) -> str | None:
    """The type of the message a send carries: its type argument, else the first argument that is
    neither options nor a destination."""
    generic = site.data.get("g") or []
    if generic:
        return simple(str(generic[0]))
    for arg in site.data.get("a") or ():
        kind = arg.get("ty")
        if kind and simple(str(kind)) not in OPTIONS:
            return simple(str(kind))
    return None


class HandlerBus:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self.client = next((c for ns, c in LIBRARIES.items() if index.uses(ns)), "nservicebus")
        self.provider = self._transport()

    def _transport(self) -> str:
        for site in self.index.sites():
            for name in (str(site.data.get("n", "")), *map(simple, site.data.get("g") or ())):
                if name in TRANSPORTS:
                    return TRANSPORTS[name]
        for site in self.index.sites("new"):
            found = TRANSPORTS.get(simple(str(site.data.get("ty", ""))))
            if found:
                return found
        return "unknown"

    def messages(self, emit: Emit) -> list[RawMessage | None]:
        out: list[RawMessage | None] = []
        for ref in self.index.types:
            for base in ref.data["b"]:
                if simple(base) in HANDLES and generic_args(base):
                    site = Site(ref.file, {"l": ref.data["l"], "e": ref.data["l"]}, ref, None)
                    handled = Expr.lit(simple(generic_args(base)[0]))
                    out.append(emit(site, "consumes", handled, self.provider, self.client))
        for site in self.index.sites():
            if site.data.get("n") in SENDS and _bus(site):
                kind = _message(site)
                if kind:
                    out.append(emit(site, "publishes", Expr.lit(kind), self.provider, self.client))
        return out
