"""Axon Framework messaging: commands, events and queries travel on channels named by their class.

Axon routes a message by its payload's type, so the channel is the payload class's fully
qualified name (provider ``axon``). Publishing: ``AggregateLifecycle.apply(new X(..))`` (often
statically imported), ``eventGateway.publish(x)`` / ``eventBus.publish(..)``,
``commandGateway.send(..)`` / ``sendAndWait(..)`` and the query gateways' ``query`` /
``subscriptionQuery`` / ``queryUpdates`` (reactor variants included). Consuming: methods (and
constructors) annotated ``@CommandHandler``, ``@EventHandler``, ``@SagaEventHandler`` or
``@QueryHandler`` handle their first parameter's type (or ``payloadType = X.class``).
``@EventSourcingHandler`` only replays an aggregate's own events and is not a consumer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import RawMessage
from orbitkb.analysis.jvm.eventuate import class_parts
from orbitkb.analysis.jvm.syntax import Call, E, Lam, MRef, Name
from orbitkb.analysis.jvm.tables import (
    AXON_APPLY,
    AXON_HANDLERS,
    AXON_IMPORT,
    AXON_NAME_HINTS,
    AXON_SENDERS,
    AXON_WRAPPERS,
)

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
    from orbitkb.analysis.jvm.walking import Walker

PROVIDER = "axon"
#: parameter types that say nothing about the payload
_OPAQUE_TYPES = {"", "Object", "Any", "String", "var", "val", "Message", "T"}
_MAX_HOPS = 4


def uses_axon(imports: list[str]) -> bool:
    return any(i.removeprefix("static ").startswith(AXON_IMPORT) for i in imports)


def detect(w: Walker, call: Call) -> None:
    if not call.args or not uses_axon(w.ctx.imports):
        return
    client = _sender(w, call)
    if client is None:
        return
    payload = payload_class(w, call.args[0])
    if payload is None:
        return
    w.add(
        {
            "k": "msg",
            "dir": "publishes",
            "provider": PROVIDER,
            "channel": channel_parts(payload, w.ctx.imports, w.ctx.package),
            "client": client,
            "line": call.line,
            "end": call.end,
        }
    )


def _sender(w: Walker, call: Call) -> str | None:
    """The gateway/bus type (or ``AggregateLifecycle``) a call publishes through, if it does."""
    owner, method = AXON_APPLY
    if call.name == method:
        if isinstance(call.recv, Name) and call.recv.id == owner:
            return owner
        # Java ``import static ...AggregateLifecycle.apply`` / Kotlin ``import ...AggregateLifecycle.apply``
        ends = (".".join(AXON_APPLY), f"{owner}.*")
        imported = any(i.removeprefix("static ").endswith(ends) for i in w.ctx.imports)
        return owner if call.recv is None and imported else None
    if call.recv is None:
        return None
    rtype = w.recv_type(call.recv) or ""
    if rtype not in AXON_SENDERS:
        name = (call.recv.id if isinstance(call.recv, Name) else getattr(call.recv, "name", "")).lower()
        rtype = next((t for fragment, t in AXON_NAME_HINTS if fragment in name), rtype)
    return rtype if call.name in AXON_SENDERS.get(rtype, ()) else None


def payload_class(w: Walker, arg: E, hops: int = 0) -> str | None:
    """The class of a payload expression: ``new X(..)`` / Kotlin ``X(..)``, a local or parameter of a
    known type, or a message wrapper around one (``GenericEventMessage.asEventMessage(x)``)."""
    if hops > _MAX_HOPS or isinstance(arg, (Lam, MRef)):
        return None
    if isinstance(arg, Call):
        if arg.name in AXON_WRAPPERS and arg.args:
            return payload_class(w, arg.args[0], hops + 1)
        if arg.new_:
            return _named(arg.name)
        return None
    if isinstance(arg, Name):
        init = w.scope.local_exprs.get(arg.id)
        if init is not None and not isinstance(init, Name):
            found = payload_class(w, init, hops + 1)
            if found is not None:
                return found
        return _named(type_payload(w.scope.type_of(arg.id) or w.scope.params.get(arg.id, "")))
    return None


def type_payload(type_text: str) -> str:
    """``PlaceOrder`` -> ``PlaceOrder``; ``EventMessage<OrderPlaced>`` -> ``OrderPlaced``."""
    text = type_text.strip().rstrip("?")
    base, _, args = text.partition("<")
    if base.rsplit(".", 1)[-1] in AXON_WRAPPERS and args:
        return type_payload(args.rsplit(">", 1)[0].split(",", 1)[0])
    return base.strip()


def _named(name: str) -> str | None:
    name = name.strip()
    return name if name not in _OPAQUE_TYPES and (name[:1].isupper() or "." in name) else None


def channel_parts(name: str, imports: list[str], package: str) -> list[list[Any]]:
    """A payload class's channel: a qualified name as written, else resolved like Eventuate's types."""
    if "." in name and name[:1].islower():
        return [["lit", name]]
    return class_parts(name, imports, package)


def handlers(index: ServiceIndex, ref: ClassRef) -> list[RawMessage]:
    """Methods and constructors of ``ref`` annotated as Axon handlers consume their payload's class."""
    imports = ref.file.get("imports", [])
    if not uses_axon(imports):
        return []
    out = []
    for m in [*ref.data["methods"], *ref.data.get("ctors", ())]:
        ann = next((a for a in m["anns"] if a[0] in AXON_HANDLERS), None)
        if ann is None:
            continue
        payload = _handled(ann, m)
        if payload is None:
            continue
        parts = channel_parts(payload, imports, ref.file.get("package", ""))
        channel = index.resolve(parts, ref)
        if channel is None:
            continue
        out.append(
            RawMessage(
                direction="consumes",
                channel=channel,
                provider=PROVIDER,
                file=ref.path,
                line=ann[2],
                end_line=m["end"],
                client=ann[0],
                component=ref.name,
            )
        )
    return out


def _handled(ann: list[Any], m: dict[str, Any]) -> str | None:
    """``payloadType = X.class`` when given, else the first parameter's type."""
    for value in ann[1].get("payloadType", ()):
        if isinstance(value, list) and value and value[0][0] in ("ref", "unknown"):
            text = str(value[0][1])
            for suffix in (".class", "::class.java", "::class"):
                text = text.removesuffix(suffix)
            if _named(text):
                return text
    if not m["params"]:
        return None
    return _named(type_payload(str(m["params"][0][1])))
