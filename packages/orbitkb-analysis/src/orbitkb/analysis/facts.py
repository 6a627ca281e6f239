"""Raw facts: what a language analyzer extracts from one service's files, before resolution.

Each language module implements ``LanguageAnalyzer``: ``parse`` one file into a JSON-able dict
(cached by content hash, so unchanged files are never parsed twice) and ``link`` the parsed files
of one service into ``LinkedFacts`` — prefixes composed across files, calls attributed to the API
whose handler reaches them. The pipeline (``pipeline.py``) then resolves every ``Expr`` through
constants already folded by the language module, environment variables and configuration
(compose, Kubernetes, helm, .env, application.yml) and turns raw facts into domain facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from attrs import field, frozen

# --------------------------------------------------------------------------- value expressions


@frozen
class Lit:
    """A literal piece of text (constants and concatenation already folded)."""

    text: str


@frozen
class Env:
    """An environment variable read by the code: os.getenv("X", "d"), process.env.X, os.Getenv("X")."""

    name: str
    default: str | None = None


@frozen
class Prop:
    """A configuration property: Spring ``${orders.url:http://x}`` / @Value / config-file key."""

    key: str
    default: str | None = None


@frozen
class Unknown:
    """Something the analyzer could not fold (a parameter, a call result). ``hint`` is the source text."""

    hint: str = ""


Part = Lit | Env | Prop | Unknown


def placeholder(key: str, default: str | None = None) -> str:
    """``${key}`` or ``${key:default}``: a configured value written so the fact builder reads it back."""
    return "${" + key + (":" + default if default is not None else "") + "}"


@frozen
class Expr:
    """A string value as a sequence of parts: ``Expr((Env("ORDERS_URL"), Lit("/orders")))``."""

    parts: tuple[Part, ...]

    @staticmethod
    def lit(text: str) -> Expr:
        return Expr((Lit(text),))

    def literal(self) -> str | None:
        """The full text when every part is literal, else None."""
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts)  # type: ignore[union-attr]
        return None


# --------------------------------------------------------------------------- raw facts


@frozen
class RawComponent:
    name: str  # class name, or the module/file stem for loose functions
    file: str  # repository-relative POSIX path
    kind: str = "class"  # class | module
    start_line: int = 1
    end_line: int = 1
    doc: str | None = None


@frozen
class RawApi:
    method: str  # GET/POST/... ; "RPC" for gRPC; "CONSUME" for message handlers
    path: str  # full path with every prefix composed; channel for message handlers
    handler: str  # "Class.method" or "function"
    file: str
    start_line: int
    end_line: int
    kind: str = "http"  # http | grpc | message
    component: str | None = None  # RawComponent.name (same file) the API belongs to
    channel: str | None = None
    provider: str | None = None  # for message handlers: kafka | rabbitmq | ...
    doc: str | None = None
    framework: str | None = None
    request_fields: tuple[tuple[str, str, bool | None], ...] = ()  # (field, type, required)
    response_fields: tuple[tuple[str, str, bool | None], ...] = ()


@frozen
class RawCall:
    """An outbound HTTP or gRPC call site."""

    kind: str  # http | grpc
    file: str
    line: int
    end_line: int
    client: str  # requests | httpx | axios | fetch | RestTemplate | feign | grpc-stub | wrapper:<name> ...
    url: Expr | None = None  # full URL or base URL + path as one expression
    method: str | None = None
    grpc_service: str | None = None  # proto service name for gRPC stubs/clients, e.g. "PaymentService"
    target_hint: str | None = None  # a service name stated by the code (Feign name, lb://name)
    api_handler: str | None = None  # RawApi.handler of the API whose handler reaches this call
    component: str | None = None


@frozen
class RawMessage:
    direction: str  # publishes | consumes
    channel: Expr
    provider: str  # kafka | rabbitmq | sqs | sns | nats | redis | jms | celery | stream | unknown
    file: str
    line: int
    end_line: int
    client: str = ""
    api_handler: str | None = None
    component: str | None = None


@frozen
class RawEntity:
    name: str  # the name the database sees (table / collection)
    kind: str  # sql_table | document_collection | key_value | ...
    file: str
    start_line: int
    end_line: int
    class_name: str | None = None
    fields: tuple[tuple[str, str, bool | None, bool], ...] = ()  # (name, type, nullable, primary_key)
    engine_hint: str | None = None  # when the code itself says (e.g. @Document -> mongodb)
    framework: str | None = None


@frozen
class ParseGap:
    file: str
    kind: str  # parse_error | unsupported
    reason: str


@frozen
class LinkedFacts:
    components: tuple[RawComponent, ...] = ()
    apis: tuple[RawApi, ...] = ()
    calls: tuple[RawCall, ...] = ()
    messages: tuple[RawMessage, ...] = ()
    entities: tuple[RawEntity, ...] = ()
    #: proto service names this service implements (Register<X>Server, <X>ImplBase, ...)
    grpc_implements: tuple[str, ...] = ()
    framework: str | None = None
    gaps: tuple[ParseGap, ...] = ()
    #: Properties the service itself declares (Spring application.yml flattened, etc.): key -> value.
    properties: Mapping[str, str] = field(factory=dict)
    #: The words of the service's linked code with their counts, most frequent first (``vocabulary.merge``).
    vocabulary: tuple[tuple[str, int], ...] = ()


@frozen
class ServiceContext:
    """What a language linker knows about the service it links."""

    name: str
    root_dir: str  # repository-relative, "." for the root
    stack: str
    repository: str
    #: library files the service builds against (``libraries.py``), passed in ``parsed`` to
    #: linkers that set ``reads_libraries``: read for declarations only, never a source of facts
    context_files: tuple[str, ...] = ()
    #: the commands its deployments start it with (compose command, container command + args), as
    #: words: ``celery -A pkg.worker worker`` names the module as the running code imports it
    commands: tuple[tuple[str, ...], ...] = ()
    #: those of ``context_files`` another service owns (a monolith built from the services'
    #: packages): their facts count only where this service's own code reaches them
    foreign_files: tuple[str, ...] = ()
    #: what its build manifests (and their ancestors') depend on: a framework that works from a
    #: dependency alone (Spring Cloud Stream binding functional beans) is known by it
    dependencies: tuple[str, ...] = ()


class LanguageAnalyzer(Protocol):
    #: language id: "python" | "node-ts" | "jvm-spring" | "go"
    stack: str
    #: bumped whenever parse() output changes, so cached parses are discarded
    version: str
    #: file suffixes this analyzer parses, e.g. (".py",)
    suffixes: tuple[str, ...]

    def parse(self, path: str, text: str) -> dict[str, Any]:
        """Parse one file into a JSON-serializable dict. Must not raise on bad code: return
        ``{"error": "reason"}`` instead (it becomes a gap). The result is cached by CONTENT: two
        files with the same text share one parse, so anything derived from ``path`` (a module
        name, a package) must be recomputed in ``link``, which receives the real paths."""
        ...

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        """Combine the parsed files of one service (path -> parse() output)."""
        ...


# --------------------------------------------------------------------------- JSON helpers for parse()


def expr_to_json(expr: Expr | None) -> list[list[str | None]] | None:
    """Encode an Expr for a parse() dict: [["lit", text], ["env", name, default], ...]."""
    if expr is None:
        return None
    out: list[list[str | None]] = []
    for p in expr.parts:
        if isinstance(p, Lit):
            out.append(["lit", p.text])
        elif isinstance(p, Env):
            out.append(["env", p.name, p.default])
        elif isinstance(p, Prop):
            out.append(["prop", p.key, p.default])
        else:
            out.append(["unknown", p.hint])
    return out


def expr_from_json(data: list[list[str | None]] | None) -> Expr | None:
    if data is None:
        return None
    parts: list[Part] = []
    for item in data:
        tag = item[0]
        if tag == "lit":
            parts.append(Lit(item[1] or ""))
        elif tag == "env":
            parts.append(Env(item[1] or "", item[2] if len(item) > 2 else None))
        elif tag == "prop":
            parts.append(Prop(item[1] or "", item[2] if len(item) > 2 else None))
        else:
            parts.append(Unknown(item[1] or ""))
    return Expr(tuple(parts))
