"""Walk one method body: fold locals, find outbound call/message sites, local invocations, routes."""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.jvm import axon, conn_sites, eventuate, http_sites, msg_sites, routes, store_sites
from orbitkb.analysis.jvm.evaluate import Parts, Scope, dotted, evaluate, literal_text
from orbitkb.analysis.jvm.syntax import Assign, Call, E, Field, Lam, Local, Name, Other, walk
from orbitkb.analysis.jvm.tables import RECEIVER_NAME_HINTS, ROUTER_MARKERS
from orbitkb.analysis.jvm.walking import BodyContext

_NOISE_RECEIVERS = {"log", "logger", "LOG", "LOGGER", "System.out", "System.err", "it"}
_MAX_INVOKE_ARGS = 6
_RETURNS = ("return", "return_expression")

#: the site detectors every call of a walked body is handed to, in this order
_DETECTORS = (
    http_sites.detect,
    conn_sites.detect,
    msg_sites.detect,
    eventuate.detect,
    axon.detect,
    store_sites.detect,
)


def simple_type(type_text: str) -> str:
    """``KafkaTemplate<String, X>`` -> ``KafkaTemplate``; ``org.x.WebClient.Builder?`` -> ``WebClient.Builder``."""
    base = type_text.split("<", 1)[0].rstrip("?").strip()
    segments = base.split(".")
    if len(segments) >= 2 and segments[-1] in ("Builder",):
        return ".".join(segments[-2:])
    return segments[-1]


class Walker:
    """State of one body walk; the detectors see it through ``walking.Walker``."""

    def __init__(self, ctx: BodyContext, scope: Scope) -> None:
        self.ctx = ctx
        self.scope = scope
        self.targets: dict[str, Parts] = {}  # local name -> address (base URL, channel target)
        self.sites: list[dict[str, Any]] = []
        self.invokes: list[list[Any]] = []
        self.assigned: dict[str, tuple[Parts, Parts | None]] = {}  # field -> (value, target)
        self.router = False
        self.in_chain: set[int] = set()
        self.want_target = False
        self.first_target: Parts | None = None  # for @Bean methods: the address the bean carries
        self.returns: list[Parts] = []  # what ``return`` statements give, in source order

    # --- receivers
    def recv_type(self, recv: E | None) -> str | None:
        name = None
        if isinstance(recv, Name):
            name = recv.id
            if name in self.scope.types:
                return self.scope.types[name] or self._hinted(name)
            if name in self.scope.params:
                return simple_type(self.scope.params[name]) or self._hinted(name)
        elif isinstance(recv, Field) and isinstance(recv.obj, Name) and recv.obj.id == "this":
            name = recv.name
        if name is None:
            return None
        if name in self.ctx.fields:
            return self.ctx.fields[name] or self._hinted(name)
        return self._hinted(name)

    @staticmethod
    def _hinted(name: str) -> str | None:
        low = name.lower()
        for fragment, type_name in RECEIVER_NAME_HINTS:
            if fragment in low:
                return type_name
        return None

    def field_of(self, recv: E | None) -> str | None:
        """The class field a receiver names (not shadowed by a local or parameter)."""
        if isinstance(recv, Field) and isinstance(recv.obj, Name) and recv.obj.id == "this":
            return recv.name
        if isinstance(recv, Name) and recv.id not in self.scope.types and recv.id not in self.scope.params:
            return recv.id if recv.id in self.ctx.fields else None
        return None

    def target_of(self, e: E | None) -> Parts | None:
        """Address carried by a client/channel expression: a local's, a field's, or the builder chain's."""
        if isinstance(e, Name) and e.id in self.targets:
            return self.targets[e.id]
        field = self.field_of(e)
        if field is not None and field in self.ctx.targets:
            return self.ctx.targets[field]
        return http_sites.chain_target(e, self.scope) if isinstance(e, Call) else None

    # --- the walk
    def run(self, statements: list[E]) -> None:
        for stmt in statements:
            for node in walk(stmt):
                if isinstance(node, Call):
                    self._call(node)
                elif isinstance(node, Local):
                    self._local(node)
                elif isinstance(node, Assign):
                    self._assign(node)
                elif isinstance(node, Lam):
                    for p in node.params:
                        self.scope.params.setdefault(p, "")
                elif isinstance(node, Other) and node.kind in _RETURNS and node.children:
                    self.returns.append(evaluate(node.children[0], self.scope))

    def _local(self, node: Local) -> None:
        scope = self.scope
        scope.locals[node.name] = (
            evaluate(node.init, scope) if node.init is not None else [["unknown", node.name]]
        )
        scope.local_exprs[node.name] = node.init if node.init is not None else Name(node.name)
        declared = simple_type(node.type) if node.type not in ("", "var", "val") else ""
        scope.types[node.name] = declared or http_sites.infer_type(node.init)
        target = self.target_of(node.init)
        if target is not None:
            self.targets[node.name] = target

    def _assign(self, node: Assign) -> None:
        tgt = node.target
        if isinstance(tgt, Name) and tgt.id in self.scope.locals:
            self.scope.locals[tgt.id] = evaluate(node.value, self.scope)
            self.scope.local_exprs[tgt.id] = node.value
            target = self.target_of(node.value)
            if target is not None:
                self.targets[tgt.id] = target
            return
        field = self.field_of(tgt)
        if field is not None:
            value = evaluate(node.value, self.scope)
            self.assigned[field] = (value, self.target_of(node.value))

    def _call(self, call: Call) -> None:
        if call.name in ROUTER_MARKERS:
            self.router = True
        if self.want_target and self.first_target is None:
            self.first_target = http_sites.chain_target(call, self.scope)
        for detect in _DETECTORS:
            detect(self, call)
        self._invoke(call)

    def _invoke(self, call: Call) -> None:
        recv = call.recv
        if recv is None or (isinstance(recv, Name) and recv.id == "this"):
            owner = ""
        elif (isinstance(recv, Name) or isinstance(recv, Field)) and (
            dotted(recv) or ""
        ) not in _NOISE_RECEIVERS:
            owner = self.recv_type(recv) or ""
            if not owner:
                return
        else:
            return
        args = [evaluate(a, self.scope) for a in call.args[:_MAX_INVOKE_ARGS]]
        made = self.scope.local_exprs.get(recv.id) if isinstance(recv, Name) else None
        if isinstance(made, Call) and made.new_:  # ``h = new CartClient(url); h.add(..)``: its ctor args
            ctor_args = [evaluate(a, self.scope) for a in made.args[:_MAX_INVOKE_ARGS]]
            self.invokes.append([owner, call.name, args, call.line, ctor_args])
        else:
            self.invokes.append([owner, call.name, args, call.line])

    def add(self, site: dict[str, Any]) -> None:
        self.sites.append(site)


def analyze(
    statements: list[E],
    ctx: BodyContext,
    params: dict[str, str],
    values: dict[str, Parts],
    want_target: bool = False,
) -> Walker:
    """Walk ``statements`` with ``params`` (name -> type) and pre-folded values (e.g. @Value params)."""
    scope = Scope(params)
    scope.fields = ctx.fields
    for name, value in values.items():
        scope.locals[name] = value
        scope.types[name] = simple_type(params.get(name, ""))
        scope.params.pop(name, None)
    walker = Walker(ctx, scope)
    walker.want_target = want_target
    walker.run(statements)
    if walker.router:
        walker.sites.extend(routes.extract(statements, walker))
    return walker


def value_annotation(anns: list[Any]) -> Parts | None:
    """``@Value("${orders.url:http://x}")`` / MicroProfile ``@ConfigProperty(name = "orders.url",
    defaultValue = "http://x")`` -> prop parts."""
    for ann in anns:
        if ann.name == "Value" and "value" in ann.args:
            return evaluate(ann.args["value"], Scope(), ann=True)
        if ann.name == "ConfigProperty" and "name" in ann.args:
            key = literal_text(evaluate(ann.args["name"], Scope()))
            default = literal_text(evaluate(ann.args["defaultValue"], Scope())) if "defaultValue" in ann.args else None
            return [["prop", key, default]] if key else None
    return None
