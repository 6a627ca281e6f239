"""Eventuate Tram messaging: domain events (channel = aggregate type) and command channels.

Domain events go to a channel named after the aggregate type, the aggregate class's fully
qualified name unless a string is given: ``DomainEventPublisher.publish(Order.class, id, events)``,
a class extending ``AbstractAggregateDomainEventPublisher<Order, ..>``, and on the consuming side
``DomainEventHandlersBuilder.forAggregateType(..)``. Commands go to literal channels:
``CommandHandlersBuilder.fromChannel("x")`` consumes, ``CommandEndpointBuilder..withChannel("x")``,
the saga DSL's ``send(cmd).to("x")`` and ``CommandProducer.send("x", ..)`` publish.

Eventuate Client (event sourcing) keeps one event stream per aggregate type: ``new
AggregateRepository<>(Account.class, store)`` publishes Account's events, and an
``@EventSubscriber`` class consumes, per ``@EventHandlerMethod``, the stream of the aggregate its
event type names with ``@EventEntity(entity = "...")`` (on the event or one of its supertypes).
The aggregate is also what the service persists: its events are rows of the event store's tables
(Eventuate Local keeps them in the service's SQL database).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Expr, Lit, RawEntity, RawMessage
from orbitkb.analysis.jvm.evaluate import Parts, dotted, evaluate
from orbitkb.analysis.jvm.resolve import qualified as qualified
from orbitkb.analysis.jvm.syntax import Call, E, Field, MRef, Other
from orbitkb.analysis.jvm.tables import (
    EVENTUATE_AGGREGATE_PUBLISHERS,
    EVENTUATE_AGGREGATE_REPOSITORIES,
    EVENTUATE_CHAINS,
    EVENTUATE_EVENT_ENTITY,
    EVENTUATE_EVENT_WRAPPERS,
    EVENTUATE_HANDLER,
    EVENTUATE_IMPORT,
    EVENTUATE_RECEIVERS,
    EVENTUATE_SUBSCRIBER,
)

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex
    from orbitkb.analysis.jvm.walking import Walker

PROVIDER = "eventuate"


def class_literal(e: E | None) -> str | None:
    """``Order.class`` / ``Order::class`` / ``Order::class.java`` -> ``Order``."""
    if isinstance(e, Field) and e.name == "java" and isinstance(e.obj, MRef):
        e = e.obj
    if isinstance(e, MRef) and e.name == "class":
        return dotted(e.obj)
    if isinstance(e, Other) and e.kind == "class":
        text = e.hint()
        return text[: -len(".class")] if text.endswith(".class") else None
    return None


def class_parts(simple: str, imports: list[str], package: str) -> Parts:
    """An imported class is named by its import; else a ``cls`` part the linker qualifies with the
    package of the class in the service (this file's package is the guess)."""
    head, _, rest = simple.partition(".")
    explicit = next((i for i in imports if i.endswith("." + head) and not i.startswith("static ")), None)
    if explicit is not None:
        return [["lit", explicit + ("." + rest if rest else "")]]
    return [["cls", simple, f"{package}.{simple}" if package else simple]]


def _channel(w: Walker, arg: E) -> Parts:
    name = class_literal(arg)
    if name is not None:
        return class_parts(name, w.ctx.imports, w.ctx.package)
    return evaluate(arg, w.scope)


def _chain(call: Call) -> list[str]:
    """Names of the calls below ``call`` in its fluent chain: ``send(c).to(x)`` -> [send]."""
    names: list[str] = []
    cur: E | None = call.recv
    while isinstance(cur, Call):
        names.append(cur.name)
        cur = cur.recv
    return names


def _uses_eventuate(w: Walker) -> bool:
    """Builder method names (``to``, ``withChannel``) are common words: the file must use Eventuate."""
    return any(i.removeprefix("static ").startswith(EVENTUATE_IMPORT) for i in w.ctx.imports)


def detect(w: Walker, call: Call) -> None:
    if not call.args:
        return
    if call.new_ and call.name in EVENTUATE_AGGREGATE_REPOSITORIES and _uses_eventuate(w):
        aggregate = class_literal(call.args[0])
        if aggregate is not None:
            _add(w, call, "publishes", class_parts(aggregate, w.ctx.imports, w.ctx.package), call.name)
        return
    rule = EVENTUATE_CHAINS.get(call.name)
    if rule is not None:
        direction, needs = rule
        if (needs is None or needs in _chain(call)) and _uses_eventuate(w):
            _add(w, call, direction, _channel(w, call.args[0]), "eventuate")
        return
    rtype = w.recv_type(call.recv) or ""
    methods = EVENTUATE_RECEIVERS.get(rtype)
    if methods is not None and call.name in methods:
        direction, index = methods[call.name]
        if len(call.args) > index:
            _add(w, call, direction, _channel(w, call.args[index]), rtype)


def _add(w: Walker, call: Call, direction: str, channel: Parts, client: str) -> None:
    w.add(
        {
            "k": "msg",
            "dir": direction,
            "provider": PROVIDER,
            "channel": channel,
            "client": client,
            "line": call.line,
            "end": call.end,
        }
    )


def aggregate_publisher(index: ServiceIndex, ref: ClassRef) -> RawMessage | None:
    """``class X extends AbstractAggregateDomainEventPublisher<Order, OrderEvent>`` publishes Order's events."""
    for sup in ref.data["supers"]:
        base = sup[0].rsplit(".", 1)[-1].split("<", 1)[0]
        if base not in EVENTUATE_AGGREGATE_PUBLISHERS or not sup[1]:
            continue
        aggregate = str(sup[1][0])
        parts = class_parts(aggregate, ref.file.get("imports", []), ref.file.get("package", ""))
        channel = index.resolve(parts, ref) or Expr((Lit(aggregate),))
        return RawMessage(
            direction="publishes",
            channel=channel,
            provider=PROVIDER,
            file=ref.path,
            line=ref.data.get("decl", ref.data["line"]),
            end_line=ref.data["end"],
            client=base,
            component=ref.name,
        )
    return None


def event_subscriber(index: ServiceIndex, ref: ClassRef) -> list[RawMessage]:
    """An ``@EventSubscriber`` class consumes the aggregate stream of each handler's event type."""
    if ref.ann(EVENTUATE_SUBSCRIBER) is None:
        return []
    out = []
    for m in ref.data["methods"]:
        handler = next((a for a in m["anns"] if a[0] == EVENTUATE_HANDLER), None)
        event = _handled_event(m) if handler is not None else None
        entity = _event_entity(index, index.find(event)) if event else None
        if handler is None or entity is None:
            continue
        out.append(
            RawMessage(
                direction="consumes",
                channel=Expr((Lit(entity),)),
                provider=PROVIDER,
                file=ref.path,
                line=handler[2],
                end_line=m["end"],
                client=EVENTUATE_SUBSCRIBER,
                component=ref.name,
            )
        )
    return out


def aggregate_entity(index: ServiceIndex, ref: ClassRef, site: dict[str, Any]) -> RawEntity | None:
    """``new AggregateRepository<>(Account.class, store)``: the service persists Account's events
    (evidence: the aggregate class when the service has it, else the repository)."""
    if site.get("client") not in EVENTUATE_AGGREGATE_REPOSITORIES:
        return None
    channel = index.resolve(site["channel"], ref)
    qualified_name = channel.literal() if channel is not None else None
    if not qualified_name:
        return None
    simple = qualified_name.rsplit(".", 1)[-1]
    own = index.find(qualified_name)
    where = own if own is not None and own in index.classes else None
    return RawEntity(
        name=qualified_name,
        kind="sql_table",
        file=where.path if where is not None else ref.path,
        start_line=where.data.get("decl", where.data["line"]) if where is not None else site["line"],
        end_line=where.data["end"] if where is not None else site["end"],
        class_name=simple,
        framework="eventuate",
    )


def _handled_event(m: dict[str, Any]) -> str | None:
    """``EventHandlerContext<MoneyTransferCreatedEvent> ctx`` -> ``MoneyTransferCreatedEvent``."""
    for _name, type_text, _anns in m["params"]:
        base, _, args = str(type_text).partition("<")
        if base.rsplit(".", 1)[-1] in EVENTUATE_EVENT_WRAPPERS and args:
            return args.rsplit(">", 1)[0].split(",", 1)[0].strip() or None
    return None


def _event_entity(index: ServiceIndex, event: ClassRef | None, depth: int = 0) -> str | None:
    if event is None or depth > 6:
        return None
    ann = event.ann(EVENTUATE_EVENT_ENTITY)
    if ann is not None:
        values = ann[1].get("entity") or ann[1].get("value") or []
        value = index.resolve(values[0], event) if values and isinstance(values[0], list) else None
        text = value.literal() if value is not None else None
        if text:
            return text
    for sup in index.supers(event):
        found = _event_entity(index, sup, depth + 1)
        if found:
            return found
    return None
