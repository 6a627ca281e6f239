"""Messages a .NET service sends and receives through EasyNetQ, the RabbitMQ client that names
exchanges and queues for you.

- the advanced API: an exchange declared by name (``bus.Advanced.ExchangeDeclare("shop", …)``) and
  kept in a field or a local, then ``Advanced.Publish(exchange, routingKey, …)`` publishes on it
  and ``Advanced.Bind(exchange, queue, routingKey)`` consumes from it (the queue is the service's
  own mailbox on that exchange); ``Advanced.Consume(queue, …)`` of a declared queue that is bound
  to nothing consumes that queue;
- publish/subscribe (``bus.PubSub.PublishAsync(order)``, ``bus.PubSub.SubscribeAsync<Order>(id, …)``
  and the older ``bus.Publish``/``bus.Subscribe<T>``): the channel is the message type, as
  EasyNetQ names its exchanges after it;
- send/receive (``bus.SendReceive.SendAsync("queue", m)``, ``Receive("queue", …)``): the queue.

An exchange or queue argument that is a field or local is the name the same class declares it with;
a class that declares one name only is read as using that name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.facts import Expr, RawMessage

CLIENT = "easynetq"
#: Advanced API: method -> (direction, position of the exchange or queue argument, kind of that argument).
ADVANCED = {
    "Publish": ("publishes", 0, "exchange"), "PublishAsync": ("publishes", 0, "exchange"),
    "Bind": ("consumes", 0, "exchange"), "BindAsync": ("consumes", 0, "exchange"),
    "Consume": ("consumes", 0, "queue"),
}  # fmt: skip
DECLARE = {"ExchangeDeclare": "exchange", "ExchangeDeclareAsync": "exchange",
           "QueueDeclare": "queue", "QueueDeclareAsync": "queue"}  # fmt: skip
#: Publish/subscribe (the channel is the message type) and send/receive (the queue): method -> direction.
PUBSUB = {
    "Publish": "publishes",
    "PublishAsync": "publishes",
    "Subscribe": "consumes",
    "SubscribeAsync": "consumes",
}
SEND_RECEIVE = {
    "Send": "publishes",
    "SendAsync": "publishes",
    "Receive": "consumes",
    "ReceiveAsync": "consumes",
}
_BUS_TYPES = frozenset({"IBus", "IAdvancedBus", "IPubSub", "ISendReceive", "SelfHostedBus", "RabbitBus"})

Reader = Callable[[Mapping[str, Any] | None, str | None], Expr | None]  # an argument -> its channel
Emit = Callable[[Site, str, Expr | None, str, str], RawMessage | None]


def _receiver(site: Site) -> str:
    return str(site.data.get("r", ""))


def _last(receiver: str) -> str:
    return receiver.rsplit(".", 1)[-1]


class EasyNetQ:
    """The EasyNetQ messages of one service, made through ``emit`` (the caller's message builder)."""

    def __init__(self, index: ServiceIndex, channel: Reader) -> None:
        self.index = index
        self.channel = channel
        #: (owner class, kind) -> [(variable it is kept in or None, declared name)]
        self.declared: dict[tuple[str, str], list[tuple[str | None, Expr]]] = {}
        self.bound: set[str] = set()  # classes that bind queues to exchanges
        for site in index.sites():
            name = str(site.data.get("n", ""))
            owner = site.owner.name if site.owner else None
            if owner is None or not self._advanced(site):
                continue
            if name in DECLARE:
                found = channel(site.arg(0, "name"), owner)
                if found is not None:
                    self.declared.setdefault((owner, DECLARE[name]), []).append((site.data.get("v"), found))
            elif name in ("Bind", "BindAsync"):
                self.bound.add(owner)

    def _advanced(self, site: Site) -> bool:
        receiver = _receiver(site)
        return _last(receiver) == "Advanced" or simple(str(site.data.get("rt", ""))) == "IAdvancedBus"

    def _resolved(self, site: Site, kind: str) -> Expr | None:
        """The exchange or queue an advanced call names: a literal or constant as it is, a field or
        local the name the class declares it with (the one name it declares, when it keeps none)."""
        owner = site.owner.name if site.owner else None
        arg = site.arg(0, kind)
        if arg is None or owner is None:
            return None
        names = self.declared.get((owner, kind), [])
        found = self.channel(arg, owner)
        if found is not None and found.literal() is not None:
            return found  # a literal or a constant
        text = str(arg.get("x", "")).removeprefix("this.")
        kept = [n for var, n in names if var is not None and var == text]
        distinct = {n for _, n in names}
        if kept:
            return kept[0]
        return next(iter(distinct)) if len(distinct) == 1 else found

    def messages(self, emit: Emit) -> list[RawMessage | None]:
        out: list[RawMessage | None] = []
        for site in self.index.sites():
            name = str(site.data.get("n", ""))
            receiver = _last(_receiver(site))
            owner = site.owner.name if site.owner else None
            if self._advanced(site) and name in ADVANCED:
                direction, _, kind = ADVANCED[name]
                if kind == "queue" and owner in self.bound:
                    continue  # the queue is bound to an exchange: the Bind names the channel
                if name.startswith("Publish") and len(site.data.get("a") or []) < 3:
                    continue  # Advanced.Publish(exchange, routingKey, mandatory, message) has four
                out.append(emit(site, direction, self._resolved(site, kind), "rabbitmq", CLIENT))
            elif name in PUBSUB and (receiver == "PubSub" or self._bus(site)):
                message_type = self._message_type(site)
                channel = Expr.lit(message_type) if message_type else None
                out.append(emit(site, PUBSUB[name], channel, "rabbitmq", CLIENT))
            elif name in SEND_RECEIVE and (receiver == "SendReceive" or self._bus(site)):
                queue = self.channel(site.arg(0, "queue"), owner)
                out.append(emit(site, SEND_RECEIVE[name], queue, "rabbitmq", CLIENT))
        return out

    def _bus(self, site: Site) -> bool:
        """The bus itself (``IBus bus; bus.Publish(m)``, EasyNetQ before version 6)."""
        return simple(str(site.data.get("rt", ""))) in _BUS_TYPES

    def _message_type(self, site: Site) -> str | None:
        generic = site.data.get("g") or []
        if generic:
            return simple(str(generic[0]))
        args = site.data.get("a") or []
        if args and args[0].get("ty"):
            return simple(str(args[0]["ty"]))
        text = str(args[0].get("x", "")) if args else ""
        if text.startswith("new "):
            return simple(text[4:].split("(", 1)[0].split("{", 1)[0].strip())
        return None
