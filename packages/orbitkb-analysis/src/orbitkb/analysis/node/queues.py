"""Job queues on Redis: Bull / BullMQ, directly and through NestJS (@InjectQueue, @Processor).

A queue name is the channel and the provider is "redis". ``queue.add()`` publishes; a worker
(``new Worker(name, fn)``, ``queue.process(fn)``, a ``@Processor`` class's ``@Process()`` methods
or its WorkerHost ``process``) consumes and is a message API. A call on a queue imported from
another file is recorded as a ``qcall`` and resolved by the linker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tree_sitter import Node

from .syntax import FUNCTION_TYPES, decorated_start, dotted, jsdoc, lines, object_pairs, text, unwrap
from .values import fold, resolve_binding, value_ref

if TYPE_CHECKING:
    from .extractor import Extractor

PROVIDER = "redis"
PUBLISH_METHODS = frozenset({"add", "addBulk"})
CONSUME_METHODS = frozenset({"process"})
# `new X(name, ...)` of a queue or a worker: (module, member path) -> (kind, client)
CONSTRUCTORS = {
    ("bullmq", "Queue"): ("queue", "bullmq"),
    ("bull", ""): ("queue", "bull"),
    ("bull", "default"): ("queue", "bull"),
    ("bee-queue", ""): ("queue", "bee-queue"),
    ("bullmq", "Worker"): ("worker", "bullmq"),
}
_DEFAULT = [["lit", "default"]]  # Bull's queue when none is named


def queue_name(ex: Extractor, node: Node | None) -> list[Any]:
    """A queue name argument: a string/constant, or an options object holding `name`."""
    node = unwrap(node)
    if node is None:
        return list(_DEFAULT)
    if node.type == "object":
        pairs = object_pairs(node)
        return fold(pairs["name"], ex.scope) if "name" in pairs else list(_DEFAULT)
    return fold(node, ex.scope)


def queue_binding(ex: Extractor, client: str, args: list[Node]) -> dict[str, Any]:
    return {
        "k": "obj",
        "t": "bull_queue",
        "queue": queue_name(ex, args[0] if args else None),
        "client": client,
    }


def inject(ex: Extractor, binding: dict[str, Any], args: list[Node]) -> None:
    """`@InjectQueue('emails') q: Queue` (a constructor parameter or a field)."""
    binding.update({"t": "bull_queue", "queue": queue_name(ex, args[0] if args else None)})
    binding["client"] = "nestjs-bull"


def _handler(ex: Extractor, node: Node, fn: Node | None, channel: list[Any], client: str, line: int) -> None:
    fn = unwrap(fn)
    fid: str | None = None
    if fn is not None and fn.type in FUNCTION_TYPES:
        fid = ex.fid_for(fn)
    elif fn is not None and fn.type == "identifier":
        bound = ex.scope.lookup(text(fn))
        fid = bound.get("fid") if bound is not None and bound.get("k") == "fn" else text(fn)
    elif fn is not None:
        fid = " ".join(text(fn).split())[:80]
    if not fid:
        return
    record = {"fid": fid, "line": line, "end": lines(node)[1], "doc": None, "cls": ex.scope.current_class}
    extra = {"channel": channel, "provider": PROVIDER, "client": client, "fw": None}
    ex.out.setdefault("handlers", []).append({**record, **extra})


def on_new(ex: Extractor, node: Node, where: tuple[str, str] | None, args: list[Node]) -> bool:
    """`new Worker('emails', fn)`: a consumer. (`new Queue(...)` is a binding, see extract.)"""
    spec = CONSTRUCTORS.get(where) if where else None
    if spec is None or spec[0] != "worker" or not args:
        return False
    _handler(ex, node, args[1] if len(args) > 1 else None, queue_name(ex, args[0]), spec[1], lines(node)[0])
    return True


def on_member_call(ex: Extractor, node: Node, prop: str, receiver: Node, args: list[Node]) -> bool:
    if prop not in PUBLISH_METHODS and prop not in CONSUME_METHODS:
        return False
    name = dotted(receiver)
    binding = resolve_binding(name, ex.scope) if name else None
    if binding is not None and binding.get("t") == "bull_queue":
        use(ex, node, prop, binding.get("queue") or list(_DEFAULT), binding.get("client", "bull"), args)
        return True
    ref = value_ref(receiver, ex.scope)
    if ref is not None and ref[0] == "imp" and (ref[1] or "").startswith((".", "@/", "~/", "src/")):
        record = {"recv": ref, "prop": prop, "fn_arg": _fn_arg(ex, args), **ex.where(node)}
        ex.out.setdefault("qcalls", []).append(record)  # the linker tells whether it is a queue
        return False
    return False


def _fn_arg(ex: Extractor, args: list[Node]) -> str | None:
    last = unwrap(args[-1]) if args else None
    return ex.fid_for(last) if last is not None and last.type in FUNCTION_TYPES else None


def use(ex: Extractor, node: Node, prop: str, channel: list[Any], client: str, args: list[Node]) -> None:
    if prop in PUBLISH_METHODS:
        record = {"dir": "publishes", "channel": channel, "provider": PROVIDER, "client": client}
        ex.out["messages"].append({**record, **ex.where(node)})
    elif args:
        _handler(ex, node, args[-1], channel, client, lines(node)[0])


def processor_class(
    ex: Extractor, cls: str, args: list[Node], members: list[tuple[list[Any], Node]], extends: str | None
) -> None:
    """`@Processor('emails')` with `@Process()` methods (@nestjs/bull) or a WorkerHost `process`
    method (@nestjs/bullmq)."""
    channel = queue_name(ex, args[0] if args else None)
    candidates = []
    for decs, member in members:
        if member.type != "method_definition":
            continue
        if any(d[0] == "Process" for d in decs):
            candidates.append((member, decorated_start(member)))
        elif text(member.child_by_field_name("name")) == "process" and "WorkerHost" in (extends or ""):
            candidates.append((member, lines(member)[0]))
    for member, start in candidates:
        record = {"fid": ex.fid_for(member), "line": start, "end": lines(member)[1], "doc": jsdoc(member)}
        extra = {
            "cls": cls,
            "channel": channel,
            "provider": PROVIDER,
            "client": "nestjs-bull",
            "fw": "nestjs",
        }
        ex.out.setdefault("handlers", []).append({**record, **extra})
