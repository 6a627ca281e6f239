"""Messaging and persistence actions: Kafka (sarama, kafka-go, confluent), RabbitMQ (amqp091,
streadway), NATS, watermill over any of its backends, Redis pub/sub and streams, SQS/SNS, MongoDB
collections and GORM AutoMigrate, plus the fallbacks for calls on receivers of unknown type."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.golang.emit import arg, emit_message, literal, new_obj, pass_through
from orbitkb.analysis.golang.routing import _pick_handler, add_route, loose_handle, message_handler
from orbitkb.analysis.golang.sink import EntityRec
from orbitkb.analysis.golang.tables import MICRO_BROKERS, WATERMILL_BACKENDS
from orbitkb.analysis.golang.values import FuncRef, Obj, S, Seq, Struct, Tup, Unk, V

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

Args = list[V]
Spec = dict[str, Any]

_KIND_CLIENTS = {
    "sarama_producer": "sarama",
    "sarama_cg": "sarama",
    "sarama_consumer": "sarama",
    "confluent_producer": "confluent-kafka-go",
    "confluent_consumer": "confluent-kafka-go",
    "kafka_writer": "kafka-go",
    "kafka_reader": "kafka-go",
}
_CLIENTS = {
    "kafka": "kafka",
    "rabbitmq": "amqp",
    "nats": "nats",
    "redis": "go-redis",
    "sqs": "aws-sdk",
    "sns": "aws-sdk",
}


def _client(recv: V | None, spec: Spec) -> str:
    kind = recv.kind if isinstance(recv, Obj) else ""
    return str(spec.get("client") or _KIND_CLIENTS.get(kind) or _CLIENTS[spec["provider"]])


def _channel_of(v: V) -> V:
    if isinstance(v, Obj):
        for key in ("Subject", "Topic", "Name", "name"):
            if key in v.a:
                return v.a[key]  # type: ignore[no-any-return]
    return v


def publish(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    if len(args) <= spec["ch"]:
        return Unk("publish")
    channel = _channel_of(args[spec["ch"]])
    if "ex" in spec:
        exchange = args[spec["ex"]]
        text = literal(exchange)
        if text is None or text:
            channel = exchange
    emit_message(it, fr, e, "publishes", channel, spec["provider"], _client(recv, spec))
    return Tup([Unk("published"), Unk("err")])


def wm_message(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A watermill publish or subscription: the broker is the backend the publisher or subscriber
    was built with (``kafka.NewPublisher``), else unknown."""
    via = arg(args, spec["via"]) if "via" in spec else recv
    found = via.a.get("provider") if isinstance(via, Obj) else None
    provider = found if isinstance(found, str) else _watermill_backend(it)
    channel = arg(args, spec["ch"])
    emit_message(it, fr, e, spec["dir"], channel, provider, "watermill")
    if "handler" in spec:
        message_handler(it, fr, e, channel, provider, arg(args, spec["handler"]), None)
    return Tup([Unk("watermill"), Unk("err")])


def micro_publisher(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """go-micro ``micro.NewEvent(topic, client)`` / ``NewPublisher``: a publisher of that topic."""
    return Obj("micro_pub", topic=arg(args, 0))


def micro_publish(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    topic = recv.a.get("topic") if isinstance(recv, Obj) else None
    if isinstance(topic, V):
        emit_message(it, fr, e, "publishes", topic, _micro_broker(it), "go-micro")
    return Unk("published")


def micro_message(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """go-micro pub/sub by topic: ``micro.RegisterSubscriber(topic, srv, h)``, ``server.
    NewSubscriber(topic, h)``, ``broker.Publish(topic, msg)`` / ``broker.Subscribe(topic, h)``."""
    if len(args) <= spec["ch"]:
        return Unk("go-micro")
    channel, provider = args[spec["ch"]], _micro_broker(it)
    emit_message(it, fr, e, spec["dir"], channel, provider, "go-micro")
    if "handler" in spec and len(args) > spec["handler"]:
        message_handler(it, fr, e, channel, provider, args[spec["handler"]], "Handle")
    return Unk("go-micro")


def _micro_broker(it: Interp) -> str:
    """The broker plugin the service imports (``go-plugins/broker/nats``), else go-micro's own."""
    found = {
        MICRO_BROKERS[p.rsplit("/", 1)[-1]]
        for p in it.prog.imported
        if "/broker/" in p and p.rsplit("/", 1)[-1] in MICRO_BROKERS
    }
    return found.pop() if len(found) == 1 else "go-micro"


def _watermill_backend(it: Interp) -> str:
    """The one watermill backend the service imports (a publisher passed around as the
    ``message.Publisher`` interface no longer says which), else unknown."""
    found = {WATERMILL_BACKENDS[p] for p in it.prog.imported if p in WATERMILL_BACKENDS}
    return found.pop() if len(found) == 1 else "unknown"


def wm_handler(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``router.AddHandler(name, subscribeTopic, sub, publishTopic, pub, handler)``."""
    wm_message(it, fr, recv, args, e, {"dir": "consumes", "ch": 1, "via": 2, "handler": 5})
    wm_message(it, fr, recv, args, e, {"dir": "publishes", "ch": 3, "via": 4})
    return Unk("handler")


def consume(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    ch = spec["ch"]
    if len(args) <= ch:
        return Unk("consume")
    channel: V = Seq(args[ch:]) if spec.get("rest") else _channel_of(args[ch])
    if spec["provider"] == "rabbitmq":
        # a queue bound to an exchange: the queue is what is read, the exchange what publishers name
        anonymous = _server_named(channel)
        if anonymous is not None:
            # a queue the broker names has no name of its own: the exchange it is bound to is the channel
            channel = it.sink.amqp_bindings.get(anonymous, channel)
        else:
            text = literal(channel)
            bound = it.sink.amqp_bindings.get(text) if text else None
            channel = Seq([channel, bound]) if bound is not None else channel
    emit_message(it, fr, e, "consumes", channel, spec["provider"], _client(recv, spec))
    if "handler" in spec and args:
        handler = arg(args, spec["handler"])
        message_handler(it, fr, e, channel, spec["provider"], handler, spec.get("method"))
    return Tup([Obj("subscription"), Unk("err")])


def _field(obj: Obj, path: str) -> V | None:
    cur: V | None = obj
    for part in path.split("."):
        if not isinstance(cur, Obj):
            return None
        cur = cur.a.get(part)
    return cur


def comp_publish(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    assert isinstance(recv, Obj)
    value = _field(recv, spec["field"])
    if value is not None and literal(value) != "":  # ``Topic: ""``: each message names its own
        emit_message(it, fr, e, "publishes", value, spec["provider"], _client(recv, spec))
    if "kind" in spec:
        recv.kind = spec["kind"]
    return recv


def comp_consume(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    assert isinstance(recv, Obj)
    value = _field(recv, spec["field"])
    if isinstance(value, Seq) and spec.get("half"):
        value = Seq(value.items[: max(1, len(value.items) // 2)])
    if value is not None:
        emit_message(it, fr, e, "consumes", value, spec["provider"], _client(recv, spec))
    return recv


def kafka_cfg(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    cfg = arg(args, 0)
    kind = "kafka_writer" if spec["dir"] == "publishes" else "kafka_reader"
    if isinstance(cfg, Obj):
        topic = cfg.a.get("Topic") or cfg.a.get("GroupTopics")
        if isinstance(topic, V):
            emit_message(it, fr, e, spec["dir"], topic, "kafka", "kafka-go")
    return Obj(kind)


_SERVER_NAMED = "queue named by the broker, declared at "


def _server_named(v: V) -> str | None:
    """The declaration site of a queue declared with an empty name (the broker names it), else None."""
    return v.hint if isinstance(v, Unk) and v.hint.startswith(_SERVER_NAMED) else None


def amqp_queue(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    name = arg(args, 0)
    if literal(name) == "":
        # ``QueueDeclare("", ...)``: an exclusive queue the broker names; one per declaration site
        name = Unk(f"{_SERVER_NAMED}{fr.file}:{e[3]}")
    return Tup([Obj("amqp_queue", Name=name), Unk("err")])


def amqp_bind(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    queue_v, exchange = _channel_of(arg(args, 0)), arg(args, 2)
    queue = _server_named(queue_v) or literal(queue_v)
    if queue and isinstance(exchange, S) and literal(exchange) != "":
        it.sink.amqp_bindings.setdefault(queue, exchange)
    return Unk("err")


def mongo_db(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return Obj("mongo_db", name=arg(args, 0))


def mongo_coll(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    name = arg(args, 0)
    if isinstance(name, S):
        it.sink.entities.append(
            EntityRec(
                name,
                "document_collection",
                fr.file,
                e[3],
                e[4],
                engine_hint="mongodb",
                framework="mongo-driver",
            )
        )
    return Obj("mongo_coll", name=name)


def fs_coll(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``client.Collection("trainings")``: a Firestore collection the service stores documents in."""
    name = arg(args, 0)
    if isinstance(name, S):
        it.sink.entities.append(
            EntityRec(
                name, "document_collection", fr.file, e[3], e[4], engine_hint="firestore", framework="firestore"
            )
        )
    return Obj("fs_coll", name=name)


def automigrate(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    for a in args:
        for item in a.items if isinstance(a, Seq) else [a]:
            if isinstance(item, Struct):
                it.sink.models.setdefault((item.dir, item.type), e[3])
    return Unk("err")


# --------------------------------------------------------------------------- unknown receivers

_UPPER_VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH"})
_CAP_VERBS = frozenset({"Get", "Post", "Put", "Delete", "Patch"})


def unknown_receiver(it: Interp, fr: Frame, x: V, name: str, args: Args, e: list[Any]) -> V:
    """Shapes recognizable without the receiver's type: a router verb or Handle/HandleFunc with a
    path literal and a handler, RabbitMQ's 7-argument Consume, sarama's Consume(ctx, topics, handler)."""
    first = literal(args[0]) if args else None
    if (
        (name in _UPPER_VERBS or name in _CAP_VERBS)
        and len(args) >= 2
        and first is not None
        and first.startswith("/")
    ):
        if any(isinstance(a, FuncRef) for a in args[1:]):
            lib = "gin" if name in _UPPER_VERBS else "chi"
            router = new_obj("router", {"lib": lib}, unbound=True)
            add_route(it, fr, e, router, args[0], [name.upper()], _pick_handler(lib, args[1:]), lib)
            return Unk("route")
    if name in ("Handle", "HandleFunc"):
        route = loose_handle(it, fr, args, e)
        if route is not None:
            return route
    if name == "Consume" and len(args) == 7:
        return consume(it, fr, x, args, e, {"provider": "rabbitmq", "ch": 0})
    if name == "Consume" and len(args) == 3 and isinstance(args[1], Seq):
        return consume(
            it, fr, x, args, e, {"provider": "kafka", "ch": 1, "handler": 2, "method": "ConsumeClaim"}
        )
    if (
        name == "Publish"
        and len(args) >= 5
        and isinstance(args[-1], Obj)
        and args[-1].a.get("type") == "Publishing"
    ):
        return publish(it, fr, x, args, e, {"provider": "rabbitmq", "ch": len(args) - 4, "ex": len(args) - 5})
    return pass_through(args, e)


ACTIONS = {
    "publish": publish,
    "consume": consume,
    "comp_publish": comp_publish,
    "comp_consume": comp_consume,
    "kafka_cfg": kafka_cfg,
    "amqp_queue": amqp_queue,
    "amqp_bind": amqp_bind,
    "mongo_db": mongo_db,
    "fs_coll": fs_coll,
    "mongo_coll": mongo_coll,
    "automigrate": automigrate,
    "wm_message": wm_message,
    "wm_handler": wm_handler,
    "micro_publisher": micro_publisher,
    "micro_publish": micro_publish,
    "micro_message": micro_message,
}
