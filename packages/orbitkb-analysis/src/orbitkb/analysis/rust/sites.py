"""Call, message and persistence sites met while the interpreter runs: reqwest-style HTTP calls
(a request builder chain ending in ``send()``, ``reqwest::get(url)``), tonic clients
(``XClient::connect(url)``, ``XClient::new(channel)``), rdkafka/lapin publishers and consumers,
sqlx queries and raw driver statements (tokio-postgres, rusqlite, …: tables read from their SQL) and
MongoDB collections, Cosmos DB containers and redis key spaces."""

from __future__ import annotations

import re
from typing import Any

from attrs import define, field

from orbitkb.analysis.facts import Expr, Lit, Unknown
from orbitkb.analysis.resolution.storenames import tables_in
from orbitkb.analysis.rust import tables as t
from orbitkb.analysis.rust.interp import Frame, Interp, _hint, grpc_client_type
from orbitkb.analysis.rust.values import GrpcClient


@define
class Site:
    kind: str  # http | grpc | publishes | consumes | entity
    file: str
    line: int
    handler: str  # the function it is in (Type.fn)
    value: Expr | None = None
    method: str | None = None  # HTTP verb; gRPC service; broker; entity kind
    extra: str | None = None  # engine hint for entities; the rpc a gRPC call names


@define
class Sites:
    found: list[Site] = field(factory=list)

    def record(self, it: Interp, frame: Frame, ir: list[Any]) -> None:
        tag = ir[0]
        if tag == "m":
            self._method(it, frame, ir)
        elif tag == "call":
            self._call(it, frame, ir)
        elif tag == "mac":
            self._macro(it, frame, ir)

    def _add(self, frame: Frame, kind: str, line: int, value: Expr | None, method: str | None, extra: str | None = None) -> None:
        self.found.append(Site(kind, frame.fn.file, line, frame.fn.handler, value, method, extra))

    # ----------------------------------------------------------------- method calls

    def _method(self, it: Interp, frame: Frame, ir: list[Any]) -> None:
        recv_ir, name, args_ir, line = ir[1], ir[2], ir[3], ir[4]
        mentions = it.prog.mentions
        client = frame.env.get(recv_ir[1]) if recv_ir and recv_ir[0] == "id" else None
        if isinstance(client, GrpcClient) and name not in t.PASS_THROUGH and name not in ("clone", "unwrap", "await"):
            at = client.frame  # an rpc called on a client bound to a name: ``client.get_stock(req)``
            url = self._channel_url(it, at, client.args[0]) if client.args else None
            self._add(frame, "grpc", line, url, client.service, name)
        elif name == "send" and any(c in mentions for c in t.HTTP_CRATES):
            builder = _builder(recv_ir)
            if builder is not None:
                verb, url_ir, at = builder
                self._add(frame, "http", at, it.string(url_ir, frame), verb)
        elif name in t.BROKER_METHODS and "lapin" in mentions and args_ir:
            direction, provider = t.BROKER_METHODS[name]
            first = it.string(args_ir[0], frame)
            if direction == "publishes" and first.literal() == "" and len(args_ir) > 1:
                first = it.string(args_ir[1], frame)  # the default exchange: the routing key is the queue
            self._add(frame, direction, line, first, provider)
        elif name == "subscribe" and args_ir and "rdkafka" in mentions:
            topics = it.eval(args_ir[0], frame)
            for topic, topic_ir in zip(topics if isinstance(topics, list) else [topics], _items(args_ir[0])):
                self._add(frame, "consumes", line, it.as_string(topic, topic_ir), "kafka")
        elif name in ("subscribe", "publish", "queue_subscribe") and args_ir and "async_nats" in mentions:
            direction = "publishes" if name == "publish" else "consumes"
            self._add(frame, direction, line, it.string(args_ir[0], frame), "nats")
        elif name in t.PUBSUB_METHODS and args_ir and (crates := [c for c in t.PUBSUB_CRATES if c in _file_mentions(it, frame)]):
            direction = t.PUBSUB_METHODS[name]  # redis ``conn.publish("ch", m)`` / ``pubsub.subscribe("ch")``, rumqttc
            channel = it.string(args_ir[0], frame)
            if channel.literal():  # a name folded to text: a variable argument may be any bus's
                self._add(frame, direction, line, channel, t.PUBSUB_CRATES[crates[0]])
        elif name in t.SQL_METHODS and args_ir and (drivers := [e for d, e in t.SQL_DRIVERS.items() if d in mentions]):
            self._sql(it, frame, args_ir[0], line, drivers[0])  # client.prepare("SELECT … FROM users")
        elif name in t.REDIS_KEY_COMMANDS and args_ir and "redis" in mentions:
            self._redis_key(it, frame, name, args_ir[0], line)
        elif name in t.COLLECTION_METHODS and args_ir and t.COLLECTION_METHODS[name][0] in mentions:
            value = it.string(args_ir[0], frame)  # db.collection("orders"), database.container_client("orders")
            if value.literal():
                self._add(frame, "entity", line, value, "document_collection", t.COLLECTION_METHODS[name][1])

    # ----------------------------------------------------------------- function calls

    def _call(self, it: Interp, frame: Frame, ir: list[Any]) -> None:
        callee, args_ir, line = ir[1], ir[2], ir[3]
        text = callee[1] if callee and callee[0] in ("id", "path") else ""
        if not text:
            return
        if text.endswith(t.HTTP_FUNCTIONS) and args_ir:
            verb = text.rsplit("::", 1)[-1].upper()
            self._add(frame, "http", line, it.string(args_ir[0], frame), verb)
            return
        for ctor, provider in t.PUBLISH_CTORS.items():
            if text.endswith(ctor) and args_ir:
                self._add(frame, "publishes", line, it.string(args_ir[0], frame), provider)
                return
        service = grpc_client_type(it.prog, text)
        if service is not None:
            url = self._channel_url(it, frame, args_ir[0], before=line) if args_ir else None
            self._add(frame, "grpc", line, url, service)
            return
        parts = text.split("::")
        if parts[-1] in ("query", "query_as", "query_scalar", "query_with", "query_as_with") and "sqlx" in text and args_ir:
            self._sql(it, frame, args_ir[0], line)

    def _channel_url(self, it: Interp, frame: Frame, ir: Any, depth: int = 0, before: int | None = None) -> Expr | None:
        """The address a client is built on: a URL, or the ``Channel``/``Endpoint`` it connects;
        a local is read from its binding before line ``before`` (``let c = X::new(c)`` rebinds)."""
        if depth > 6 or not isinstance(ir, list) or not ir:
            return None
        if ir[0] == "id" and ir[1] in frame.env:
            value = frame.env[ir[1]]
            if isinstance(value, Expr):
                return value
        if ir[0] == "id":
            origin = _origin(frame.fn, ir[1], before)
            return self._channel_url(it, frame, origin, depth + 1, _line_of(origin)) if origin is not None else None
        parts: list[str] = []
        if ir[0] == "call":
            text = ir[1][1] if ir[1] and ir[1][0] in ("id", "path") else ""
            parts = text.split("::")
            if len(parts) >= 2 and parts[-1] in t.GRPC_CHANNEL_CTORS and parts[-2] in ("Channel", "Endpoint", "Uri"):
                return it.string(ir[2][0], frame) if ir[2] else None
        value = it.eval(ir, frame)
        if isinstance(value, Expr):
            return value
        if len(parts) >= 2 and parts[-2].endswith(("Client", "Channel", "Service")):
            for arg in ir[2]:  # a channel wrapped in middleware: TracingClient::new(channel)
                found = self._channel_url(it, frame, arg, depth + 1, _line_of(ir))
                if found is not None:
                    return found
        if ir[0] == "m":
            return self._channel_url(it, frame, ir[1], depth + 1, _line_of(ir))
        return None

    # ----------------------------------------------------------------- macros

    def _macro(self, it: Interp, frame: Frame, ir: list[Any]) -> None:
        name, args_ir, line = ir[1], ir[2], ir[3]
        short = name.rsplit("::", 1)[-1]
        if short in ("query", "query_scalar", "query_unchecked") and args_ir:
            self._sql(it, frame, args_ir[0], line)
        elif short in ("query_as", "query_as_unchecked") and len(args_ir) > 1:
            self._sql(it, frame, args_ir[1], line)

    def _redis_key(self, it: Interp, frame: Frame, command: str, ir: Any, line: int) -> None:
        """The key space a redis command stores in: the literal prefix before ``:`` of its key
        (``format!("cart:{id}")``), a whole literal key of a redis-only command, or ``*`` for a
        redis-only command whose key is computed at run time (the store is known, its names not)."""
        key = it.string(ir, frame)
        first = key.parts[0] if key.parts else None
        text = first.text if isinstance(first, Lit) else ""
        if ":" in text:
            name = text.split(":", 1)[0]
        elif t.REDIS_KEY_COMMANDS[command] and key.literal():
            name = text
        elif t.REDIS_KEY_COMMANDS[command] and not _from_parameter(key, frame):
            name = "*"  # a wrapper's key parameter is named by its callers, not here
        else:
            return
        if name:
            self._add(frame, "entity", line, Expr.lit(name), "key_value", "redis")

    def _sql(self, it: Interp, frame: Frame, ir: Any, line: int, engine: str | None = None) -> None:
        sql = it.string(ir, frame).literal()
        for table in tables_in(sql or ""):
            self._add(frame, "entity", line, Expr.lit(table), "sql_table", engine)


def _file_mentions(it: Interp, frame: Frame) -> set[str]:
    """The crates the file of the running function names (a service may use several pub/sub clients)."""
    data = it.prog.files.get(frame.fn.file) or {}
    return set(data.get("mentions") or ())


def _builder(ir: Any) -> tuple[str, Any, int] | None:
    """(verb, URL expression, line) of the request builder a ``send()`` chain starts from."""
    depth = 0
    while isinstance(ir, list) and ir and ir[0] == "m" and depth < 20:
        name, args = ir[2], ir[3]
        if name in t.HTTP_BUILDERS and args:
            return t.HTTP_BUILDERS[name], args[0], ir[4]
        if name == "request" and len(args) >= 2:
            verb = _hint(args[0]).rsplit("::", 1)[-1].upper()
            return (verb if verb in t.HTTP_BUILDERS.values() else None) or "GET", args[1], ir[4]
        ir = ir[1]
        depth += 1
    return None


def _items(ir: Any) -> list[Any]:
    return list(ir[1]) if isinstance(ir, list) and ir and ir[0] == "arr" else [ir]


def _origin(fn: Any, name: str, before: int | None = None) -> Any:
    """The expression a local was bound to (the last ``let`` of that name, before line ``before``
    when given)."""
    found = None
    for stmt in fn.data.get("stmts") or ():
        if stmt[0] == "let" and stmt[1] == name:
            line = _line_of(stmt[2])
            if before is None or line is None or line < before:
                found = stmt[2]
    return found


def _from_parameter(value: Expr, frame: Frame) -> bool:
    """True when a value is unknown only because it is a parameter of the running function."""
    params = {p[0].lstrip("&").removeprefix("mut ") for p in frame.fn.params}
    return any(isinstance(p, Unknown) and re.split(r"\W", p.hint, maxsplit=1)[0] in params for p in value.parts)


def _line_of(ir: Any) -> int | None:
    """The line a call, method call or macro expression starts on."""
    if isinstance(ir, list) and ir and ir[0] in ("call", "m", "mac"):
        line = ir[3] if ir[0] in ("call", "mac") else ir[4]
        return line if isinstance(line, int) else None
    return None
