"""Messaging: Kafka (kafka-python, confluent-kafka, aiokafka), RabbitMQ (pika, aio-pika), SQS/SNS
(boto3), NATS, Redis pub/sub, streams and lists used as work queues, Celery (tasks as handlers,
send_task/.delay/.apply_async as publishes) and FastStream subscribers. Channels are folded like URLs."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.dapr.apply import PROVIDER_PREFIX, component_label
from orbitkb.analysis.facts import Env, Expr, Lit, ParseGap, RawApi, RawMessage, Unknown
from orbitkb.analysis.python.calls import has_param
from orbitkb.analysis.python.ir import Node, describe, items, literal
from orbitkb.analysis.python.linkctx import Inv, LinkState, render_path, to_expr
from orbitkb.analysis.python.routing import decorated_functions, split_call
from orbitkb.analysis.python.signatures import (
    CELERY_SEND_METHODS,
    CELERY_TASK_DECORATORS,
    CONSUMER_CONSTRUCTORS,
    DUCK_KEYWORDS,
    DUCK_METHODS,
    MESSAGE_METHODS,
    REDIS_LIST_READS,
)

Key = tuple[str, str]


def _channels(st: LinkState, inv: Inv, o: Node, spec: str) -> list[Node]:
    if spec == "topic":
        return _one(inv.arg(0, "topic"))
    if spec == "topics":
        return [t for t in items(inv.arg(0, "topics")) if t["t"] != "none"]
    if spec == "queue":
        return _one(inv.arg(0, "queue"))
    if spec == "bind_exchange":
        return _one(inv.arg(1, "exchange"))
    if spec == "basic_publish":
        exchange, key = inv.arg(0, "exchange"), inv.arg(1, "routing_key")
        return _one(key if exchange is None or literal(exchange) == "" else exchange)
    if spec == "kombu_publish":  # ``producer.publish(body, exchange=Exchange("x"), routing_key="k")``
        ex = inv.kw.get("exchange")
        if ex is not None and ex["t"] == "inst":  # ``Exchange("billing", type="topic")``
            ex = ex.get("name") or (ex["a"][0] if ex.get("a") else ex.get("k", {}).get("name"))
        if ex is None or ex["t"] == "none" or literal(ex) == "":
            return _one(inv.arg(1, "routing_key"))
        return _one(ex)
    if spec == "exchange_publish":
        name = o.get("name")
        if name is None:  # an exchange handed in (a parameter, app state): the one the service declares
            name = sole_exchange(st)
        return _one(inv.arg(1, "routing_key") if name is None or literal(name) == "" else name)
    if spec == "self":
        return _one(o.get("name"))
    if spec == "queue_bind_arg":
        ex = inv.arg(0, "exchange")
        if ex is not None and ex["t"] == "param":  # typed ``exchange: AbstractExchange``: its object
            obj = st.r.as_object(ex)
            ex = obj if st.r.family(obj) == "amqp-exchange" else ex
        named = ex.get("name") if ex is not None and ex["t"] == "inst" else ex
        if ex is not None and ex["t"] == "inst" and named is None:
            named = sole_exchange(st)
        return _one(named)
    if spec == "all":
        return [x for a in inv.args for x in items(a)]
    if spec == "keys":  # ``blpop(["a", "b"], timeout=5)`` or ``blpop("a", 5)``
        keys = inv.arg(0, "keys")
        return [k for k in items(keys) if k["t"] != "none"] if keys is not None else []
    if spec == "list_push":
        key = inv.arg(0, "name")
        return [] if key is None or read_back(st, key) else [key]
    if spec.startswith("streams:"):
        src = inv.arg(int(spec.split(":")[1]), "streams")
        return [{"t": "lit", "v": k} for k in sorted(src["v"])] if src and src["t"] == "dict" else _one(src)
    if spec.startswith("kw_tail:"):
        for k in spec.split(":")[1].split("|"):
            if k in inv.rec.get("k", ()):
                return _one(inv.kw[k])
        return []
    if spec.startswith("arg"):
        pos, names = spec[3:].split(":")
        return _one(inv.arg(int(pos), *names.split("|")))
    return []


def read_back(st: LinkState, key: Node | None) -> bool:
    """True when the service reads the redis list ``key`` back (``lrange``, ``llen``...)."""
    reads = st.memo.get("redis_list_reads")
    if reads is None:
        reads = set()
        for inv in st.invs:
            c = inv.callee
            if c["t"] == "bm" and c["n"] in REDIS_LIST_READS:
                arg = inv.arg(0, "name")
                expr = to_expr(st.r, arg) if arg is not None else None
                reads.add(render_path(expr) if expr is not None else None)
        st.memo["redis_list_reads"] = reads
    expr = to_expr(st.r, key) if key is not None else None
    return expr is None or render_path(expr) in reads


def sole_exchange(st: LinkState) -> Node | None:
    """The one named exchange a service declares (``channel.declare_exchange(name=settings.x)``),
    for an exchange object handed to the code that publishes or binds through it (a parameter, a
    ``Depends``, ``app.state``) whose declaration the values cannot follow; None when the service
    declares none or several."""
    if "sole_exchange" in st.memo:
        found: Node | None = st.memo["sole_exchange"]
        return found
    names: dict[str, Node] = {}
    for inv in st.invs:
        c = inv.rec.get("c") or {}
        if c.get("t") not in ("attr", "bm") or c.get("n") != "declare_exchange":
            continue
        callee = inv.callee
        if callee["t"] != "bm":
            continue
        if st.r.family(st.r.as_object(callee["o"])) != "amqp-channel" and "aio_pika" not in st.libs:
            continue
        node = inv.arg(0, "name")
        if node is None:
            continue
        expr = to_expr(st.r, node)
        if expr is not None and not unresolved(expr):
            names[render_path(expr) or describe(node)] = node
    sole = next(iter(names.values())) if len(names) == 1 else None
    st.memo["sole_exchange"] = sole
    return sole


def _one(node: Node | None) -> list[Node]:
    return [] if node is None or node["t"] == "none" else [node]


def tail(expr: Expr, sep: str) -> Expr:
    """The queue/topic name at the end of an SQS URL or SNS ARN, when the text shows it.

    An env read keeps its name (config resolves it) but its default is cut to the name too."""
    text = expr.literal()
    if text is not None:
        return Expr((Lit(text.rsplit(sep, 1)[-1]),))
    last = expr.parts[-1]
    if isinstance(last, Lit) and sep in last.text:
        return Expr((Lit(last.text.rsplit(sep, 1)[-1]),))
    if len(expr.parts) == 1 and isinstance(last, Env) and last.default:
        return Expr((Env(last.name, last.default.rsplit(sep, 1)[-1]),))
    return expr


def _family(st: LinkState, inv: Inv, o: Node, n: str) -> str | None:
    fam = st.r.family(o)
    if fam is not None:
        return fam
    if o["t"] == "inst" and o["c"]["t"] == "ext" and not o["c"]["q"].startswith("@"):
        unknown_ext = True
    else:
        unknown_ext = False
    if o["t"] not in ("param", "bm", "unk", "ret", "ext") and not unknown_ext:
        return None
    for k in inv.rec.get("k", ()):
        if (n, k) in DUCK_KEYWORDS:
            return DUCK_KEYWORDS[(n, k)]
    file_libs = set(st.files[inv.path].get("libs", ()))
    for libs in (file_libs, st.libs):
        for lib, cand in DUCK_METHODS.get(n, ()):
            if lib is None or lib in libs:
                return cand
    return None


def task_name(st: LinkState, path: str, qual: str, kw: dict[str, Node]) -> Node:
    name = kw.get("name")
    if name is not None and literal(name):
        return name
    return {"t": "lit", "v": f"{st.module_name(path)}.{qual.rsplit('.', 1)[-1]}"}


def celery_tasks(st: LinkState) -> dict[Key, tuple[Node, int]]:
    """Celery task functions -> (task name: explicit ``name=`` or module.function, decorator line)."""
    memo: dict[Key, tuple[Node, int]] | None = st.memo.get("celery_tasks")
    if memo is not None:  # handlers, publishes and beat schedules all ask
        return memo
    out: dict[Key, tuple[Node, int]] = {}
    st.memo["celery_tasks"] = out
    for path, qual, _info, dec, line in decorated_functions(st):
        fv, _args, kw, _is_call = split_call(st, dec)
        if fv["t"] == "ext" and fv["q"] in CELERY_TASK_DECORATORS:
            out[(path, qual)] = (task_name(st, path, qual, kw), line)
        elif fv["t"] == "bm" and fv["n"] == "task":
            o = st.r.as_object(fv["o"])
            fam = st.r.family(o)
            if fam == "celery" or (fam is None and "celery" in st.libs and o["t"] != "inst"):
                out[(path, qual)] = (task_name(st, path, qual, kw), line)
    return out


def handlers(
    st: LinkState,
) -> tuple[list[tuple[RawApi, Key | None, str]], list[tuple[RawMessage, str | None]]]:
    """Framework-declared message handlers: Celery tasks, FastStream ``@broker.subscriber`` and
    Dapr ``@dapr_app.subscribe(pubsub=, topic=)``."""
    apis: list[tuple[RawApi, Key | None, str]] = []
    msgs: list[tuple[RawMessage, str | None]] = []
    found: list[tuple[str, str, Node, str, str, int]] = [
        (path, qual, name, "celery", "celery", line)
        for (path, qual), (name, line) in celery_tasks(st).items()
    ]
    published: list[tuple[RawMessage, str | None]] = []
    for path, qual, _info, dec, line in decorated_functions(st):
        fv, args, kw, is_call = split_call(st, dec)
        if is_call and fv["t"] == "bm" and fv["n"] == "subscribe":
            msgs += _dapr_subscription(st, path, qual, line, fv, args, kw)
            continue
        if is_call and fv["t"] == "bm" and fv["n"] in ("subscriber", "publisher"):
            fam = st.r.family(st.r.as_object(fv["o"])) or ""
            if not fam.startswith("faststream:"):
                continue
            named = kw.get("queue") or kw.get("topic") or kw.get("channel") or kw.get("subject")
            for ch in args[:1] or _one(named):
                if fv["n"] == "subscriber":
                    found.append((path, qual, ch, fam.split(":")[1], "faststream", line))
                    continue
                # ``@broker.publisher("q")`` on a handler: what it returns is published to q
                expr = to_expr(st.r, ch)
                if expr is not None and not unresolved(expr):
                    published.append((RawMessage("publishes", expr, fam.split(":")[1], path, line, line,
                                                 client="faststream"), qual))  # fmt: skip
    for path, qual, name, provider, framework, line in found:
        info = st.func(path, qual)
        expr = to_expr(st.r, name) or Expr((Lit(""),))
        text = expr.literal() or describe(name)
        apis.append((consume_api(st, path, qual, line, text, provider, framework), (path, qual), path))
        msg = RawMessage(
            "consumes", expr, provider, path, info.get("l", 1), info.get("e", 1), client=framework
        )
        msgs.append((msg, qual))
    return apis, msgs + published


def _dapr_subscription(
    st: LinkState, path: str, qual: str, line: int, fv: Any, args: list[Node], kw: dict[str, Node]
) -> list[tuple[RawMessage, str | None]]:
    """``@dapr_app.subscribe(pubsub="bus", topic="t")`` on a Dapr app extension: consumes ``t``."""
    if st.r.family(st.r.as_object(fv["o"])) != "dapr-app":
        return []
    topic = kw.get("topic") or (args[1] if len(args) > 1 else None)
    bus = kw.get("pubsub") or kw.get("pubsub_name") or (args[0] if args else None)
    expr = to_expr(st.r, topic) if topic is not None else None
    if expr is None:
        return []
    provider = PROVIDER_PREFIX + component_label(to_expr(st.r, bus) if bus is not None else None)
    end = st.func(path, qual).get("e", line)
    return [(RawMessage("consumes", expr, provider, path, line, end, client="dapr"), qual)]


def consume_api(st: LinkState, path: str, qual: str, line: int, channel: str, provider: str,
                framework: str) -> RawApi:
    """The message-handler API of a function that consumes ``channel`` (declared at ``line``)."""
    info = st.func(path, qual)
    return RawApi(
        method="CONSUME",
        path=channel,
        handler=st.handler_name(path, qual),
        file=path,
        start_line=line,
        end_line=info.get("e", line),
        kind="message",
        component=st.component_of(path, qual)[0],
        channel=channel,
        provider=provider,
        doc=info.get("doc"),
        framework=framework,
    )


Found = tuple[str, str, Node, str]  # direction, provider, channel node, client label


class _Wrappers:
    """A project's own helper that publishes or consumes a channel named by its parameter
    (``def consume(self, binding_key): ... declare_queue(f"{binding_key}_queue")``) is reported at
    each of its call sites with the argument bound, as thin HTTP wrappers are. A function nested in
    the helper and never called by name (``def _run(): ch.basic_consume(queue=queue_name)`` handed
    to a thread or a callback) is the helper's body: its channels bind at the helper's sites."""

    def __init__(self, st: LinkState, tasks: dict[Key, tuple[Node, int]]) -> None:
        self.st, self.tasks = st, tasks
        self.by_fn: dict[Key, list[Inv]] = {}
        self.called: set[Key] = set()
        for inv in st.invs:
            if inv.fn is not None:
                self.by_fn.setdefault((inv.path, inv.fn), []).append(inv)
            if inv.callee["t"] == "fn":
                self.called.add((inv.callee["p"], inv.callee["n"]))
        self._templates: dict[Key, list[Found]] = {}
        self.children: dict[Key, list[Key]] = {}
        for path, fn in self.by_fn:
            if "." in fn:
                self.children.setdefault((path, fn.rsplit(".", 1)[0]), []).append((path, fn))

    def templates(self, key: Key, depth: int = 0) -> list[Found]:
        """What function ``key`` sends or receives on a channel that depends on its parameters."""
        if key in self._templates:
            return self._templates[key]
        self._templates[key] = []
        invs = [inv for k in (key, *self._inner(key)) for inv in self.by_fn.get(k, ())]
        out = [f for inv in invs for f in self.found(inv, depth + 1) if has_param(f[2])]
        self._templates[key] = out
        return out

    def _inner(self, key: Key) -> list[Key]:
        """Functions nested in ``key`` that nothing calls by name (thread targets, callbacks)."""
        out: list[Key] = []
        for k in self.children.get(key, ()):
            if k not in self.called:
                out += [k, *self._inner(k)]
        return out

    def _owner(self, key: Key) -> Key:
        """The function whose call sites report ``key``'s findings: itself, or the function it is
        nested in when nothing calls it by name."""
        path, fn = key
        while key not in self.called and "." in fn:
            fn = fn.rsplit(".", 1)[0]
            if (path, fn) not in self.by_fn:
                break
            key = (path, fn)
        return key

    def found(self, inv: Inv, depth: int = 0) -> list[Found]:
        direct = _classify(self.st, inv, self.tasks)
        if direct or depth > 3 or inv.callee["t"] != "fn":
            return direct
        c = inv.callee
        tmpl = self.templates((c["p"], c["n"]), depth)
        if not tmpl:
            return []
        bind = self.st.r.bind_call(c, inv.args, inv.kw)
        return [(d, p, self.st.r.ev(ch, bind), client) for d, p, ch, client in tmpl]

    def at_sites(self, inv: Inv) -> bool:
        """True when ``inv``'s own findings are its function's callers' to report."""
        key = self._owner((inv.path, inv.fn)) if inv.fn is not None else None
        return key is not None and key in self.called and bool(self.templates(key))


def collect(st: LinkState) -> tuple[list[tuple[RawMessage, str | None]], list[ParseGap]]:
    """Every publish and consume site, and one gap per site whose channel cannot be folded."""
    tasks = celery_tasks(st)
    wrappers = _Wrappers(st, tasks)
    out: list[tuple[RawMessage, str | None]] = []
    gaps: list[ParseGap] = []
    for inv in st.invs:
        for direction, provider, ch, client in wrappers.found(inv):
            if has_param(ch) and wrappers.at_sites(inv):
                continue  # reported where the helper is called, with the channel it is given
            expr = to_expr(st.r, ch)
            if expr is None:
                continue
            if provider in ("sqs", "sns"):
                expr = tail(expr, "/" if provider == "sqs" else ":")
            if unresolved(expr):
                shown = render_path(expr) or describe(ch)
                reason = f"{provider} {direction} at line {inv.line}: channel not resolved ({shown})"
                gaps.append(ParseGap(inv.path, "unsupported", reason))
                continue
            out.append(
                (RawMessage(direction, expr, provider, inv.path, inv.line, inv.end, client=client), inv.fn)
            )
    return out, gaps


#: a template's field left in the text (``"{queue}"``, ``"{}.events"``): no broker names a channel so
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]?[\w.]*\}")


def unresolved(expr: Expr) -> bool:
    """A channel with a part no constant or configuration names (a runtime value, a parameter no
    caller binds), no text at all, or a template's placeholder such as ``{queue}`` left in it."""
    if expr.literal() == "" or any(isinstance(p, Unknown) for p in expr.parts):
        return True
    return any(isinstance(p, Lit) and _PLACEHOLDER.search(p.text) for p in expr.parts)


def _classify(
    st: LinkState, inv: Inv, tasks: dict[Key, tuple[Node, int]]
) -> list[tuple[str, str, Node, str]]:
    c = inv.callee
    if c["t"] == "ext" and c["q"] in CONSUMER_CONSTRUCTORS:
        provider = CONSUMER_CONSTRUCTORS[c["q"]]
        topics = [x for a in inv.args for x in items(a)]
        return [("consumes", provider, t, c["q"].split(".")[0]) for t in topics]
    if c["t"] == "ext" and "." in c["q"]:
        head, _, last = c["q"].rpartition(".")
        if any(lib is None for lib, _fam in DUCK_METHODS.get(last, ())):
            # a verb only one broker has, on an object imported from code this service lacks
            # (``from worker.app import celery_app`` where the worker is another service)
            c = {"t": "bm", "o": {"t": "ext", "q": head}, "n": last}
    if c["t"] != "bm":
        return []
    n = c["n"]
    o = st.r.as_object(c["o"])
    if n in CELERY_SEND_METHODS and o["t"] == "fn" and (o["p"], o["n"]) in tasks:
        return [("publishes", "celery", tasks[(o["p"], o["n"])][0], "celery")]
    fam = _family(st, inv, o, n)
    spec = MESSAGE_METHODS.get((fam or "", n))
    if spec is None:
        return []
    direction, provider, how = spec
    client = _client_label(o, fam or "", st.files[inv.path].get("libs", ()))
    return [(direction, provider, ch, client) for ch in _channels(st, inv, o, how)]


_AMQP_LIBS = ("aio_pika", "pika", "aiormq", "kombu")


def _client_label(o: Node, fam: str, libs: tuple[str, ...] | list[str]) -> str:
    """The library the code uses (``aiokafka``, ``pika``...), else the family's broker name."""
    if o["t"] == "inst" and o["c"]["t"] == "ext" and not o["c"]["q"].startswith("@"):
        library: str = o["c"]["q"].split(".")[0]
        return library
    if fam.startswith("amqp"):
        return next((lib for lib in _AMQP_LIBS if lib in libs), "amqp")
    return fam.split("-")[0].replace(":", "-")


__all__: list[Any] = ["collect", "handlers", "celery_tasks", "tail"]
