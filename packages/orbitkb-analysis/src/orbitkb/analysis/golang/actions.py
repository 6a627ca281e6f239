"""The registry of library actions the interpreter dispatches to (names used in ``tables.py``)."""

from __future__ import annotations

from collections.abc import Callable

from orbitkb.analysis.golang import clients, dapr, grpcserver, messaging, routing, sqltext
from orbitkb.analysis.golang.clients import generic_ext, grpc_invoke
from orbitkb.analysis.golang.emit import env_value, new_obj, pass_through, prop_value
from orbitkb.analysis.golang.messaging import unknown_receiver
from orbitkb.analysis.golang.values import V

#: every action is called as (interpreter, frame, receiver, arguments, call IR, table options) -> V
ACTIONS: dict[str, Callable[..., V]] = {**clients.ACTIONS, **routing.ACTIONS, **messaging.ACTIONS, **grpcserver.ACTIONS, **sqltext.ACTIONS, **dapr.ACTIONS}

__all__ = [
    "ACTIONS",
    "env_value",
    "generic_ext",
    "grpc_invoke",
    "new_obj",
    "pass_through",
    "prop_value",
    "unknown_receiver",
]
