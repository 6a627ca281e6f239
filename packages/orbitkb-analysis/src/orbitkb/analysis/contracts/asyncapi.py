"""AsyncAPI 2 and 3 documents as the channels a service publishes to and consumes from.

AsyncAPI 2 names operations from the client's side: ``subscribe`` is what the application sends
(clients subscribe to it), ``publish`` what it receives. AsyncAPI 3 says ``send``/``receive`` from
the application's side, on channels whose ``address`` is the broker's name for them. The broker
is the channel's (or operation's) binding, else the protocol every server shares.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.contracts.documents import text_of
from orbitkb.analysis.facts import Expr, RawMessage
from orbitkb.analysis.resolution import engines
from orbitkb.analysis.yamlines import LDict

CLIENT = "asyncapi"
V2_DIRECTIONS = {"subscribe": "publishes", "publish": "consumes"}
V3_DIRECTIONS = {"send": "publishes", "receive": "consumes"}
#: protocol spellings that name the same broker
_PROTOCOLS = {"kafka-secure": "kafka", "amqps": "amqp", "amqp1": "amqp", "mqtts": "mqtt", "secure-mqtt": "mqtt",
              "mqtt5": "mqtt", "googlepubsub": "pubsub", "ibmmq": "jms", "anypointmq": "unknown"}  # fmt: skip


def _provider(name: str | None) -> str | None:
    if not name:
        return None
    key = name.strip().lower()
    return engines.normalize_provider(_PROTOCOLS.get(key, key))


def _binding(*specs: Any) -> str | None:
    """The broker a ``bindings`` mapping names, when it names exactly one."""
    for spec in specs:
        bindings = spec.get("bindings") if isinstance(spec, dict) else None
        if isinstance(bindings, dict):
            names = [k for k in bindings if not str(k).startswith(("x-", "$", "bindingVersion"))]
            if len(names) == 1:
                return _provider(names[0])
    return None


def _server_provider(root: LDict) -> str:
    servers = root.get("servers")
    found = {
        _provider(text_of(s.get("protocol")))
        for s in (servers.values() if isinstance(servers, dict) else [])
        if isinstance(s, dict)
    } - {None}
    return next(iter(found)) if len(found) == 1 else engines.UNKNOWN  # type: ignore[return-value]


def _message(direction: str, channel: str, provider: str, path: str, line: int) -> RawMessage:
    return RawMessage(direction, Expr.lit(channel), provider, path, line, line, client=CLIENT)


def asyncapi_messages(path: str, root: LDict) -> list[RawMessage]:
    channels = root.get("channels")
    if not isinstance(channels, LDict):
        return []
    default = _server_provider(root)
    version = str(root.get("asyncapi", "")).strip()
    out: list[RawMessage] = []
    if version.startswith(("1.", "2.")):
        for name, item in channels.items():
            if not isinstance(item, LDict):
                continue
            for key, direction in V2_DIRECTIONS.items():
                if isinstance(item.get(key), dict):
                    provider = _binding(item.get(key), item) or default
                    out.append(_message(direction, str(name), provider, path, item.line(key)))
        return out
    operations = root.get("operations")
    if not isinstance(operations, LDict):
        return out
    for op_name, op in operations.items():
        if not isinstance(op, LDict) or text_of(op.get("action")) not in V3_DIRECTIONS:
            continue
        ref = op.get("channel")
        ref_text = text_of(ref.get("$ref")) if isinstance(ref, dict) else None
        channel_id = ref_text.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~") if ref_text else None
        channel = channels.get(channel_id) if channel_id else None
        if not isinstance(channel, dict) or channel_id is None:
            continue
        address = text_of(channel.get("address")) or channel_id
        provider = _binding(op, channel) or default
        out.append(
            _message(V3_DIRECTIONS[str(op["action"]).strip()], address, provider, path, operations.line(op_name))
        )
    return out
