"""Nameko services: ``@http`` entrypoints (nameko's own decorator or a project subclass of its
HttpRequestHandler) as HTTP routes; ``@rpc`` methods, ``@event_handler`` and ``@consume`` as
message consumers; ``RpcProxy`` / ``ClusterRpcProxy`` calls, ``EventDispatcher`` and
``Publisher`` as publishers. Everything nameko sends travels over AMQP (RabbitMQ).

Channels follow nameko's own naming: an RPC to service ``x`` travels on ``rpc-x`` (x is the
``name = "x"`` of the class serving it), an event ``e`` dispatched by service ``s`` on ``s.e``.
A channel whose service or event name cannot be folded becomes one gap, never a guessed name.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.facts import Expr, Lit, ParseGap, RawApi, RawMessage, Unknown
from orbitkb.analysis.python.ir import Node, cat, describe, lit
from orbitkb.analysis.python.linkctx import Inv, LinkState, to_expr
from orbitkb.analysis.python.messaging import consume_api
from orbitkb.analysis.python.routing import PendingRoute, decorated_functions, function_route, split_call
from orbitkb.analysis.python.signatures import (
    KOMBU_ENTITIES,
    NAMEKO_CLUSTER_PROXIES,
    NAMEKO_DECORATORS,
    NAMEKO_DISPATCHERS,
    NAMEKO_ENTRYPOINT_BASES,
    NAMEKO_PUBLISHERS,
    NAMEKO_SERVICE_PROXIES,
    NAMEKO_STANDALONE_DISPATCHERS,
)

FRAMEWORK = "nameko"
PROVIDER = "rabbitmq"
Key = tuple[str, str]
ApiOut = tuple[RawApi, Key | None, str]
MsgOut = tuple[RawMessage, str | None]


def _entry_kind(st: LinkState, fv: Node) -> str | None:
    """``http`` / ``rpc`` / ``event`` / ``consume`` for a nameko entrypoint decorator, else None."""
    if fv["t"] == "ext":
        return NAMEKO_DECORATORS.get(fv["q"])
    if fv["t"] == "bm" and fv["n"] == "decorator" and fv["o"]["t"] == "cls":
        for base in sorted(st.r.ancestors(fv["o"])[1]):
            if base in NAMEKO_ENTRYPOINT_BASES:
                return NAMEKO_ENTRYPOINT_BASES[base]
    return None


def _entrypoints(
    st: LinkState,
) -> list[tuple[str, str, dict[str, Any], int, str, list[Node], dict[str, Node]]]:
    if "nameko" not in st.libs:
        return []
    out = []
    for path, qual, info, dec, line in decorated_functions(st):
        fv, args, kw, _is_call = split_call(st, dec)
        kind = _entry_kind(st, fv)
        if kind is not None:
            out.append((path, qual, info, line, kind, args, kw))
    return out


def _service_name(st: LinkState, path: str, qual: str | None) -> Node | None:
    """The ``name`` class attribute of the service class containing function ``qual``."""
    names = _service_names(st, path, qual)
    return names[0] if len(names) == 1 else None


def _service_names(st: LinkState, path: str, qual: str | None) -> list[Node]:
    """``name`` of the class containing ``qual``; for a mixin without one, of each local subclass
    that has one (the services the mixin's entrypoints end up in)."""
    cls = st.func(path, qual).get("c") if qual else None
    if not cls:
        return []
    own = _name_attr(st, {"t": "cls", "p": path, "n": cls})
    if own is not None:
        return [own]
    out = []
    for p in sorted(st.files):
        for sub in st.files[p]["classes"]:
            c = {"t": "cls", "p": p, "n": sub}
            if (p, sub) != (path, cls) and any(
                (a["p"], a["n"]) == (path, cls) for a in st.r.ancestors(c)[0][1:]
            ):
                name = _name_attr(st, c)
                if name is not None and name not in out:
                    out.append(name)
    return out


def _name_attr(st: LinkState, c: Node) -> Node | None:
    node = st.r.class_attr(c, "name", None)
    return None if node.get("t") in ("missing", "none", "bm", "fn", "cls") else node


def routes(st: LinkState) -> list[PendingRoute]:
    out = []
    for path, qual, info, line, kind, args, kw in _entrypoints(st):
        if kind != "http":
            continue
        method = args[0] if args else kw.get("method")
        url = args[1] if len(args) > 1 else kw.get("url")
        if method is None or url is None:
            continue
        verbs = sorted({m.strip().upper() for m in (_text(st, method) or "").split(",") if m.strip()})
        site = (path, line, info.get("e", line))
        rid = f"nameko:{path}"
        out.append(function_route(st, rid, url, verbs or ["GET"], path, qual, FRAMEWORK, site))
    return out


def handlers(st: LinkState) -> tuple[list[ApiOut], list[MsgOut], list[ParseGap]]:
    """Consumers: ``@rpc`` (channel ``rpc-<service name>``), ``@event_handler(source, event)``
    (``source.event``) and ``@consume(Queue("name"))``."""
    apis: list[ApiOut] = []
    msgs: list[MsgOut] = []
    gaps: list[ParseGap] = []
    for path, qual, info, line, kind, args, kw in _entrypoints(st):
        channels: list[Node | None]
        if kind == "rpc":
            names = _service_names(st, path, qual)
            channels = [cat([lit("rpc-"), n]) for n in names] or [None]
            what = "rpc service name"
        elif kind == "event":
            source = args[0] if args else kw.get("source_service")
            event = args[1] if len(args) > 1 else kw.get("event_type")
            channels = [cat([source, lit("."), event]) if source is not None and event is not None else None]
            what = "handled event"
        elif kind == "consume":
            channels = [_kombu_name(args[0] if args else kw.get("queue"))]
            what = "consumed queue"
        else:
            continue
        for channel in channels:
            expr = _channel(st, channel, path, what, gaps)
            if expr is None:
                continue
            text = expr.literal() or describe(channel)
            apis.append((consume_api(st, path, qual, line, text, PROVIDER, FRAMEWORK), (path, qual), path))
            msgs.append(
                (
                    RawMessage("consumes", expr, PROVIDER, path, line, info.get("e", line), client=FRAMEWORK),
                    qual,
                )
            )
    return apis, msgs, gaps


def publishes(st: LinkState) -> tuple[list[MsgOut], list[ParseGap]]:
    """RPC proxies (declared and called), event dispatchers and nameko Publishers."""
    msgs: list[MsgOut] = []
    gaps: list[ParseGap] = []
    if "nameko" not in st.libs:
        return msgs, gaps
    for inv in st.invs:
        found = _publish(st, inv)
        if found is None:
            continue
        channel, what = found
        expr = _channel(st, channel, inv.path, what, gaps)
        if expr is not None:
            msg = RawMessage("publishes", expr, PROVIDER, inv.path, inv.line, inv.end, client=FRAMEWORK)
            msgs.append((msg, inv.fn))
    return msgs, gaps


def _publish(st: LinkState, inv: Inv) -> tuple[Node | None, str] | None:
    c = inv.callee
    if c["t"] == "ext" and c["q"] in NAMEKO_SERVICE_PROXIES:  # the declaration names its target
        return _rpc(inv.arg(0, "target_service", "service_name")), "rpc proxy"
    q = _inst_q(c)  # calling an object: a dispatcher or a publisher
    if q in NAMEKO_DISPATCHERS:
        source = _service_name(st, inv.path, inv.fn)
        event = inv.arg(0, "event_type")
        channel = cat([source, lit("."), event]) if source is not None and event is not None else None
        return channel, "dispatched event"
    if q in NAMEKO_STANDALONE_DISPATCHERS:
        source, event = inv.arg(0, "service_name"), inv.arg(1, "event_type")
        channel = cat([source, lit("."), event]) if source is not None and event is not None else None
        return channel, "dispatched event"
    if q in NAMEKO_PUBLISHERS:
        return _publisher_name(c), "publisher"
    if c["t"] != "bm":
        return None
    # proxy.method(), proxy.method.call_async(), cluster.<service>.method()
    o = c["o"]
    for _ in range(3):
        oq = _inst_q(o)
        if oq in NAMEKO_SERVICE_PROXIES:
            return _rpc(o["a"][0] if o["a"] else o["k"].get("target_service")), "rpc call"
        if o["t"] == "bm" and _inst_q(o["o"]) in NAMEKO_CLUSTER_PROXIES:
            return _rpc(lit(o["n"])), "rpc call"
        if o["t"] != "bm":
            return None
        o = o["o"]
    return None


def _rpc(target: Node | None) -> Node | None:
    return cat([lit("rpc-"), target]) if target is not None and target["t"] != "none" else None


def _inst_q(o: Node) -> str | None:
    return o["c"]["q"] if o["t"] == "inst" and o["c"]["t"] == "ext" else None


def _kombu_name(node: Node | None) -> Node | None:
    """The name of a ``kombu.Queue("x")`` / ``Exchange("x")`` (a plain string stands for itself)."""
    if node is None:
        return None
    if _inst_q(node) in KOMBU_ENTITIES:
        name: Node | None = node["a"][0] if node["a"] else node["k"].get("name")
        return name
    return node if node["t"] in ("lit", "cat", "env") else None


def _publisher_name(pub: Node) -> Node | None:
    """A Publisher sends to its exchange when it has one, else to its queue."""
    if pub["t"] != "inst":
        return None
    for key in ("exchange", "queue"):
        name = _kombu_name(pub["k"].get(key))
        if name is not None:
            return name
    return None


def _text(st: LinkState, node: Node) -> str | None:
    expr = to_expr(st.r, node)
    return expr.literal() if expr is not None else None


def _channel(st: LinkState, channel: Node | None, path: str, what: str, gaps: list[ParseGap]) -> Expr | None:
    """The channel as an Expr, or None (and one gap) when part of it cannot be folded."""
    expr = to_expr(st.r, channel) if channel is not None else None
    if expr is None or any(isinstance(p, Unknown) for p in expr.parts) or expr == Expr((Lit(""),)):
        shown = describe(channel) if channel is not None else "?"
        gaps.append(ParseGap(path, "unsupported", f"nameko {what}: channel not resolved ({shown})"))
        return None
    return expr
