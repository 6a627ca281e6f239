"""The System Knowledge Model: facts about services and how they depend on each other.

Every fact carries evidence (file, lines, commit) and a provenance saying who produced it:
``deterministic`` (static analysis), ``llm`` (an interpretation) or ``config`` (resolved through
deployment configuration). Ids are derived from content (see ``ids``), so indexing the same tree
twice yields the same ids.
"""

from __future__ import annotations

from enum import StrEnum

from attrs import field, frozen


class Provenance(StrEnum):
    DETERMINISTIC = "deterministic"
    LLM = "llm"


class CallKind(StrEnum):
    HTTP = "http"
    GRPC = "grpc"


class TargetKind(StrEnum):
    INTERNAL = "internal"
    EXTERNAL = "external"
    UNKNOWN = "unknown"


class ResourceType(StrEnum):
    QUEUE = "queue"
    STORAGE = "storage"
    COMPUTE = "compute"
    SAAS = "saas"
    DB_MANAGED = "db_managed"
    OTHER = "other"
    NOT_APPLICABLE = "not_applicable"


class PurposeKind(StrEnum):
    VALIDATION = "validation"
    ENRICHMENT = "enrichment"
    NOTIFICATION = "notification"
    PERSISTENCE = "persistence"
    ORCHESTRATION = "orchestration"
    AUTHORIZATION = "authorization"
    OTHER = "other"


class Direction(StrEnum):
    PUBLISHES = "publishes"
    CONSUMES = "consumes"


class ApiKind(StrEnum):
    HTTP = "http"
    GRPC = "grpc"
    MESSAGE = "message"


@frozen
class Evidence:
    """A span of source: where a fact was read. ``commit`` is None outside git."""

    file: str
    start_line: int
    end_line: int
    commit: str | None = None
    note: str | None = None  # e.g. "env ORDERS_URL set in docker-compose.yml"


@frozen
class Repository:
    name: str
    root_path: str
    vcs: str = "none"  # "git" | "none"
    indexed_commit: str | None = None
    indexed_at: str | None = None
    #: The folders of this repository that have been indexed (relative, "." for the root).
    roots: tuple[str, ...] = (".",)


@frozen
class Service:
    id: str
    name: str
    repository: str
    root_dir: str  # relative to the repository root, "." for a single-service repository
    stack: str
    framework: str | None = None
    aliases: tuple[str, ...] = ()
    #: Author-written text (README first paragraph), verbatim, provenance deterministic.
    readme: str | None = None
    #: One-line and long descriptions; from facts offline, from an LLM when enriched.
    short_desc: str | None = None
    long_desc: str | None = None
    desc_provenance: Provenance = Provenance.DETERMINISTIC
    evidence: tuple[Evidence, ...] = ()


@frozen
class Component:
    id: str
    service_id: str
    name: str
    file_path: str
    kind: str = "class"  # "class" | "module"
    start_line: int = 1
    end_line: int = 1
    doc: str | None = None
    summary: str | None = None
    summary_provenance: Provenance = Provenance.DETERMINISTIC


@frozen
class ShapeField:
    field: str
    type_desc: str
    required: bool | None = None


@frozen
class Validation:
    kind: str  # "authorization" | "input_validation" | "business_rule" | ...
    description: str
    provenance: Provenance = Provenance.DETERMINISTIC


@frozen
class Api:
    id: str
    service_id: str
    method: str  # HTTP verb, "RPC" for gRPC, "CONSUME"/"HANDLE" for message handlers
    path: str  # "/orders/{id}", "package.Service/Method", or the channel name
    handler: str  # symbol: "OrdersController.create" / "create_order"
    file: str
    start_line: int
    end_line: int
    kind: ApiKind = ApiKind.HTTP
    component_id: str | None = None
    channel: str | None = None
    doc: str | None = None  # author-written docstring / Javadoc / JSDoc, verbatim
    summary: str | None = None
    description: str | None = None
    summary_provenance: Provenance = Provenance.DETERMINISTIC
    request_shape: tuple[ShapeField, ...] = ()
    response_shape: tuple[ShapeField, ...] = ()
    validations: tuple[Validation, ...] = ()
    evidence: tuple[Evidence, ...] = ()


@frozen
class ServiceCall:
    """One service depending on another service or on an external system, over HTTP or gRPC."""

    id: str
    from_service_id: str
    call_kind: CallKind
    target: str  # the name as resolved: a service name, a host, or a vendor
    target_kind: TargetKind = TargetKind.UNKNOWN
    resource_type: ResourceType = ResourceType.NOT_APPLICABLE
    to_service_id: str | None = None
    from_api_id: str | None = None
    from_component_id: str | None = None
    method: str | None = None
    path: str | None = None
    to_api_id: str | None = None
    reason: str | None = None
    data_needed: tuple[str, ...] = ()
    purpose_kind: PurposeKind = PurposeKind.OTHER
    confidence: float = 1.0
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance = Provenance.DETERMINISTIC
    #: Every API whose handler reaches the call site through the service's own code, first =
    #: ``from_api_id`` (kept single-valued for compatibility; either one fills the other).
    from_api_ids: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        first, every = _first_and_all(self.from_api_id, self.from_api_ids)
        object.__setattr__(self, "from_api_id", first)
        object.__setattr__(self, "from_api_ids", every)


def _first_and_all(first: str | None, every: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """A single-valued field and its many-valued twin kept consistent: the single one leads."""
    if first is not None:
        return first, (first, *dict.fromkeys(i for i in every if i != first))
    every = tuple(dict.fromkeys(every))
    return (every[0] if every else None), every


@frozen
class EntityField:
    name: str
    type: str
    nullable: bool | None = None
    primary_key: bool = False


@frozen
class PersistenceEntity:
    id: str
    service_id: str
    name: str  # what the database sees: table / collection / key prefix
    kind: str  # "sql_table" | "document_collection" | "key_value" | "search_index" | ...
    engine: str = "unknown"  # postgres | mysql | mongodb | redis | ... | unknown
    class_name: str | None = None
    fields: tuple[EntityField, ...] = ()
    description: str | None = None
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance = Provenance.DETERMINISTIC


@frozen
class Message:
    id: str
    service_id: str
    direction: Direction
    channel: str
    provider: str = "unknown"  # kafka | rabbitmq | sqs | sns | nats | redis | ... | unknown
    api_id: str | None = None
    component_id: str | None = None
    description: str | None = None
    evidence: tuple[Evidence, ...] = ()
    provenance: Provenance = Provenance.DETERMINISTIC
    #: Every API whose handler reaches the publish/consume site, first = ``api_id``.
    api_ids: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        first, every = _first_and_all(self.api_id, self.api_ids)
        object.__setattr__(self, "api_id", first)
        object.__setattr__(self, "api_ids", every)


@frozen
class Technology:
    """A technology a service is built with, read from its manifests and files: its languages,
    frameworks, declared dependencies, build tool and container base images."""

    id: str
    service_id: str
    kind: str  # language | framework | library | build_tool | base_image
    name: str  # as the ecosystem names it: "python", "spring-boot", "org.projectlombok:lombok", "node:20-alpine"
    version: str | None = None
    evidence: tuple[Evidence, ...] = ()


TECHNOLOGY_KINDS = ("language", "framework", "library", "build_tool", "base_image")


@frozen
class Resource:
    """Infrastructure declared by a repository (a database, broker or cache container)."""

    name: str
    repository: str
    kind: str  # "database" | "broker" | "cache" | "search" | "other"
    engine: str = "unknown"
    image: str | None = None
    evidence: tuple[Evidence, ...] = ()


@frozen
class Gap:
    """Something the indexer saw but could not use: a parse failure, a skipped file or folder."""

    repository: str
    path: str
    kind: str  # "parse_error" | "too_large" | "binary" | "invalid_utf8" | "symlink_outside" | "unknown_stack" | ...
    reason: str


@frozen
class ServiceFacts:
    """Everything known about one service: the unit that is written and replaced atomically."""

    service: Service
    components: tuple[Component, ...] = ()
    apis: tuple[Api, ...] = ()
    calls: tuple[ServiceCall, ...] = ()
    entities: tuple[PersistenceEntity, ...] = ()
    messages: tuple[Message, ...] = ()
    files: tuple[str, ...] = field(default=())  # the files owned by this service
    technologies: tuple[Technology, ...] = ()
    #: Words of the service's own source (identifiers split, literals, comments, config keys, file
    #: names) as a bounded bag, most frequent first, a word repeated with the log of its count:
    #: a retrieval field ranked like bm25 over the code, never shown as a fact.
    vocabulary: tuple[str, ...] = ()
    #: Words of the commit messages that touched the service's folders, up to the indexed commit
    #: (``change_history``), as a bag like ``vocabulary``: a retrieval field, never shown as a fact.
    history: tuple[str, ...] = ()


@frozen
class Freshness:
    indexed_at: str | None
    source_commit: str | None
    current_commit: str | None
    stale: bool | None
