"""Event-sourcing stores wired into NestJS CQRS: the streams a feature module writes and reads.

`EventStoreModule.registerFeature({ featureStreamName: "$ce-orders", subscriptions: [{ stream:
"$ce-payments" }] })` (and `forFeature` / `forRoot...` variants of the NestJS EventStoreDB
bridges) replaces the CQRS EventBus publisher: every event the module's code publishes is
appended to the feature stream, and every subscription stream feeds its event handlers. Streams
are the channels, with provider "eventstore". The feature stream is published to only when the
service publishes events at all (`eventBus.publish`, `publishAll`, an aggregate merged through
`EventPublisher.mergeObjectContext`): the linker drops the record otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node

from .syntax import dotted, object_pairs, unwrap
from .values import fold

if TYPE_CHECKING:
    from .extractor import Extractor

PROVIDER = "eventstore"
#: the methods of an event-store Nest module that take the feature's options
REGISTER_METHODS = frozenset(
    {"registerFeature", "registerFeatureAsync", "forFeature", "forFeatureAsync", "forRoot", "forRootAsync"}
)
#: option keys naming the stream the feature appends to
FEATURE_STREAM_KEYS = ("featureStreamName", "streamName", "stream")
#: option keys holding the subscriptions (each `{ stream }` or a stream name)
SUBSCRIPTION_KEYS = ("subscriptions", "persistentSubscriptions", "catchupSubscriptions")
#: the flag a file sets when it publishes CQRS events
PUBLISHES_EVENTS = "publishes_events"
_EVENT_BUS_NAMES = frozenset({"eventbus", "bus", "publisher", "eventpublisher"})


def _is_event_store(ex: Extractor, receiver: Node) -> bool:
    name = dotted(receiver) or ""
    where = ex.module_path(name)
    spec = (where[0] if where else "").lower().replace("-", "")
    return "eventstore" in spec or (not where and name.lower().replace("_", "").startswith("eventstore"))


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    """`XModule.registerFeature({...})` of an event-store module; notes event publishing."""
    if prop in ("publish", "publishAll", "mergeObjectContext", "mergeClassContext"):
        last = (dotted(receiver) or "").rsplit(".", 1)[-1].lower()
        if last in _EVENT_BUS_NAMES or prop.startswith("merge"):
            ex.out[PUBLISHES_EVENTS] = True
        return False
    if prop not in REGISTER_METHODS or not args or not _is_event_store(ex, receiver):
        return False
    for arg in args:
        _options(ex, unwrap(arg))
    return True


def _options(ex: Extractor, options: Node | None) -> None:
    if options is None or options.type != "object":
        return
    pairs = object_pairs(options)
    for key in FEATURE_STREAM_KEYS:
        if key in pairs:
            _add(ex, pairs[key], "publishes", requires=PUBLISHES_EVENTS)
            break
    for key in SUBSCRIPTION_KEYS:
        items = unwrap(pairs.get(key))
        for raw in items.named_children if items is not None and items.type == "array" else []:
            item = unwrap(raw)
            if item is not None and item.type == "object":
                stream = object_pairs(item).get("stream") or object_pairs(item).get("streamName")
                if stream is not None:
                    _add(ex, stream, "consumes")
            elif item is not None and item.type in ("string", "identifier", "member_expression"):
                _add(ex, item, "consumes")


def _add(ex: Extractor, value: Node, direction: str, requires: str | None = None) -> None:
    channel = fold(value, ex.scope)
    if not channel:
        return
    record = {"dir": direction, "channel": channel, "provider": PROVIDER, "client": "nestjs-event-store"}
    if requires:
        record["requires"] = requires
    ex.out["messages"].append({**record, **ex.where(value)})
