"""The Dapr Go SDK: topics published through a client, topic handlers added to a Dapr service, and
state kept in named state stores.

``client.PublishEvent(ctx, "bus", "orders", data)`` publishes the topic ``orders`` on the pub/sub
component ``bus`` (its broker comes from the component YAML, ``dapr.apply``);
``s.AddTopicEventHandler(&common.Subscription{PubsubName: "bus", Topic: "orders"}, h)`` consumes
it; ``client.SaveState(ctx, "carts", key, v, nil)`` keeps data in the state store ``carts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.dapr.apply import FRAMEWORK, PROVIDER_PREFIX, component_label
from orbitkb.analysis.golang.emit import arg, as_str, emit_message
from orbitkb.analysis.golang.sink import EntityRec
from orbitkb.analysis.golang.values import Obj, S, Struct, Tup, Unk, V

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

Args = list[V]
Spec = dict[str, Any]


def _provider(component: V | None) -> str:
    """``dapr:<component>``; a name read from env as ``${VAR:default}`` (``dapr.apply`` reads it)."""
    return PROVIDER_PREFIX + (component_label(component.to_expr()) if isinstance(component, S) else "")


def dapr_publish(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    if len(args) > spec["ch"]:
        emit_message(it, fr, e, "publishes", args[spec["ch"]], _provider(arg(args, spec["via"])), FRAMEWORK)
    return Unk("err")


def dapr_subscribe(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A topic handler: the subscription's ``Topic`` on its ``PubsubName``."""
    sub = arg(args, 0)
    fields: dict[str, Any] = sub.fields if isinstance(sub, Struct) else sub.a if isinstance(sub, Obj) else {}
    topic = fields.get("Topic")
    if isinstance(topic, V):
        emit_message(it, fr, e, "consumes", topic, _provider(fields.get("PubsubName")), FRAMEWORK)
    return Unk("err")


def dapr_state(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    store = arg(args, spec["store"])
    if isinstance(store, S) and store.resolved_score():
        it.sink.entities.append(
            EntityRec(as_str(store), "key_value", fr.file, e[3], e[4], framework=FRAMEWORK)
        )
    return Tup([Unk("state"), Unk("err")])


ACTIONS = {"dapr_publish": dapr_publish, "dapr_subscribe": dapr_subscribe, "dapr_state": dapr_state}
