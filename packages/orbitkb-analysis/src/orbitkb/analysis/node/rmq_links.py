"""The RMQ queues NestJS clients send into and microservices consume, resolved for one service
(the records rmq_queues extracts: a client's queue by its injection token, a server's by its site)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..facts import Expr
from .resolve import Resolver, ref_text
from .rmq_queues import is_rmq


def _names_rmq(parts: list[Any]) -> bool:
    """Raw parts of a `transport:` value that name `Transport.RMQ`."""
    return any(
        (p[0] == "ref" and is_rmq(ref_text(p[1]))) or (p[0] == "unknown" and is_rmq(str(p[1]))) for p in parts
    )


class RmqQueues:
    def __init__(self, files: Mapping[str, dict[str, Any]], resolver: Resolver) -> None:
        self.r = resolver
        #: injection token (its value, and its text as written) -> the client's queue
        self.by_token: dict[str, Expr] = {}
        for file in sorted(files):
            for rec in files[file].get("rmq_clients", []):
                queue = self.queue(file, rec)
                token = resolver.expr(file, rec["token"]) if rec.get("token") else None
                keys = (token.literal() if token is not None else None, rec.get("token_text"))
                for key in keys:
                    if key and queue is not None:
                        self.by_token.setdefault(key, queue)

    def queue(self, file: str, rec: Mapping[str, Any]) -> Expr | None:
        """The queue a record names in place, or the one a function of the service returns."""
        if rec.get("queue"):
            return self.r.expr(file, rec["queue"])
        ref = rec.get("options_of")
        transport = self.r.returned_field(file, ref, "transport") if ref else None
        if ref is None or transport is None or not _names_rmq(transport[0]):
            return None
        found = self.r.returned_field(file, ref, "options.queue")
        return Expr(tuple(found[1])) if found is not None and found[1] else None

    def client_queue(self, file: str, msg: Mapping[str, Any]) -> Expr | None:
        """The queue a `send` / `emit` of a NestJS client goes into, else None."""
        if msg.get("queue") or msg.get("options_of"):
            return self.queue(file, msg)
        token = msg.get("token")
        return self.by_token.get(token) if token else None
