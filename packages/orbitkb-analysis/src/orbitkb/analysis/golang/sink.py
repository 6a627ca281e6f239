"""Records the interpreter emits (routes, calls, messages, entities) before they become raw facts.

A function may be interpreted several times (on its own, and from each caller with arguments
bound), so one source site can produce several variants; ``finalize`` keeps the best-resolved
ones per site (see ``select.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from attrs import define, field

if TYPE_CHECKING:
    from orbitkb.analysis.golang.program import Program
    from orbitkb.analysis.golang.values import Obj, S, V


@define(eq=False)
class HandlerInfo:
    symbol: str
    file: str
    start: int
    end: int
    doc: str | None
    component: str
    component_kind: str  # class | module
    type_dir: str | None = None


@define(eq=False)
class RouteRec:
    lib: str
    router: Obj | None
    seg: V
    methods: list[str]
    handler: HandlerInfo | None
    file: str
    line: int
    end: int
    bound: bool = True
    kind: str = "http"
    provider: str | None = None
    channel: S | None = None
    framework: str | None = None
    # gRPC: ((dir, implementing type), registering package, packages the method's types come from)
    grpc: tuple[tuple[str, str], str | None, frozenset[str]] | None = None


@define(eq=False)
class CallRec:
    kind: str
    file: str
    line: int
    end: int
    client: str
    url: S | None
    method: str | None
    grpc_service: str | None
    api_handler: str | None
    component: str
    param_url: bool = False
    ctor: bool = False  # a gRPC client constructor: kept only when no RPC of its service is invoked


@define(eq=False)
class MsgRec:
    direction: str
    channel: S
    provider: str
    file: str
    line: int
    end: int
    client: str
    api_handler: str | None
    component: str


@define(eq=False)
class EntityRec:
    name: S
    kind: str
    file: str
    start: int
    end: int
    class_name: str | None = None
    fields: tuple[tuple[str, str, bool | None, bool], ...] = ()
    engine_hint: str | None = None
    framework: str | None = None


@define(eq=False)
class Sink:
    prog: Program
    routes: list[RouteRec] = field(factory=list)
    calls: list[CallRec] = field(factory=list)
    messages: list[MsgRec] = field(factory=list)
    entities: list[EntityRec] = field(factory=list)
    #: the first Redis command of the service's own code whose key is known only at run time: the
    #: store's one key space ``*`` when no command names a key (``finalize.entities``)
    runtime_keys: list[EntityRec] = field(factory=list)
    models: dict[tuple[str, str], int] = field(factory=dict)  # GORM model types -> line used
    grpc_impls: dict[str, list[Any]] = field(factory=dict)  # proto service -> impl values
    grpc_pkgs: dict[tuple[str, str], set[str]] = field(factory=dict)  # impl type -> registering pkgs
    amqp_bindings: dict[str, S] = field(factory=dict)  # queue -> exchange
    resited: set[tuple[str, int]] = field(factory=set)  # wrapper-internal call sites reported at callers
