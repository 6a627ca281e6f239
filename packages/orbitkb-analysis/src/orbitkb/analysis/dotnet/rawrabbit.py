"""Messages a .NET service sends and receives through RawRabbit, the RabbitMQ client configured
with builder lambdas.

``busClient.PublishAsync(msg, ctx => ctx.UsePublishConfiguration(c => c.OnDeclaredExchange(e =>
e.WithName("shop"))))`` publishes on the exchange ``shop``; ``SubscribeAsync<T>(handler, …)`` with
the same configuration consumes from it (RawRabbit 1 writes ``WithExchange(e => e.WithName(…))``).
The exchange's name may be built in a helper of the same class that returns the builder lambda
(``Action<IExchangeDeclarationBuilder>``), and may come from bound options (``_options.Exchange.Name``
-> the configured value). Without a named exchange the channel is the message type, after which
RawRabbit routes by default. A queue's ``WithName`` is the service's mailbox, not a channel.
"""

from __future__ import annotations

import re

from orbitkb.analysis.dotnet.easynetq import Emit
from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.facts import Expr, RawMessage

CLIENT = "rawrabbit"
CALLS = {"PublishAsync": "publishes", "SubscribeAsync": "consumes"}
CLIENTS = frozenset({"IBusClient", "BusClient"})
#: Builder calls whose lambda names an exchange (RawRabbit 2, RawRabbit 1).
EXCHANGE_BUILDERS = frozenset({"OnDeclaredExchange", "WithExchange", "OnExchange"})
_GENERIC_PARAMETER = re.compile(r"^T([A-Z]\w*)?$")


def _bus(site: Site) -> bool:
    """The RawRabbit client (``IBusClient``), or a receiver named as one (``_busClient``, ``bus``)."""
    if simple(str(site.data.get("rt", ""))) in CLIENTS:
        return True
    receiver = str(site.data.get("r", "")).rsplit(".", 1)[-1].lower()
    return "bus" in receiver or "client" in receiver


class RawRabbit:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        #: class -> the exchange names its builders declare, in the order read
        self.exchanges: dict[str, list[Expr]] = {}
        inv_by_file = {path: data.get("inv") or [] for path, data in index.files.items()}
        for site in index.sites():
            if site.data.get("n") != "WithName" or site.owner is None:
                continue
            parent = site.data.get("p", -1)
            invs = inv_by_file.get(site.file, [])
            under = 0 <= parent < len(invs) and invs[parent].get("n") in EXCHANGE_BUILDERS
            returns = str((site.method or {}).get("r", ""))
            if not (
                under or "ExchangeDeclarationBuilder" in returns or "ExchangeConfigurationBuilder" in returns
            ):
                continue
            arg = site.arg(0, "exchangeName")
            found = index.expr(arg["v"], site.owner.name) if arg and "v" in arg else None
            names = self.exchanges.setdefault(site.owner.name, [])
            if found is not None and found not in names:
                names.append(found)

    def messages(self, emit: Emit) -> list[RawMessage | None]:
        out: list[RawMessage | None] = []
        for site in self.index.sites():
            direction = CALLS.get(str(site.data.get("n", "")))
            if direction is None or site.owner is None or not site.data.get("a") or not _bus(site):
                continue
            named = self.exchanges.get(site.owner.name)
            if named:
                out += [emit(site, direction, name, "rabbitmq", CLIENT) for name in named]
                continue
            kind = self._message_type(site)
            out.append(emit(site, direction, Expr.lit(kind) if kind else None, "rabbitmq", CLIENT))
        return out

    def _message_type(self, site: Site) -> str | None:
        generic = site.data.get("g") or []
        args = site.data.get("a") or []
        kind = simple(str(generic[0])) if generic else simple(str(args[0].get("ty", ""))) if args else ""
        return (
            kind if kind and not _GENERIC_PARAMETER.match(kind) and kind not in ("string", "object") else None
        )
