"""Answer shapes of the read use cases, with the reference system's field names. Adapters turn
them into JSON with ``serialization.to_data``; nothing here is stored."""

from __future__ import annotations

from attrs import field, frozen

from orbitkb.domain.model import Evidence, Freshness, ShapeField, Validation

DEFAULT_LIMIT = 50
MAX_LIMIT = 500


@frozen
class ListPage:
    total: int
    truncated: bool


@frozen
class DescriptionPages:
    """The page a service description was cut to, and each of its lists' total and whether it was cut."""

    limit: int
    offset: int
    calls: ListPage
    apis: ListPage
    components: ListPage
    persists: ListPage
    messages: ListPage
    technologies: ListPage


@frozen
class RepositoryView:
    name: str
    root_path: str
    vcs: str
    service_count: int
    services: tuple[str, ...]
    freshness: Freshness
    last_run_status: str | None = None


@frozen
class ServiceListItem:
    name: str
    short_desc: str | None
    stack: str
    api_count: int
    repository: str
    framework: str | None = None


@frozen
class CallView:
    to_service_name: str
    call_kind: str
    reason: str | None
    data_needed: tuple[str, ...]
    purpose_kind: str
    target_kind: str
    resource_type: str
    confidence: float
    provenance: str
    method: str | None = None
    path: str | None = None
    from_api: str | None = None
    evidence: tuple[Evidence, ...] = ()


@frozen
class ApiRef:
    method: str
    path: str
    summary: str | None
    kind: str = "http"


@frozen
class ComponentRef:
    name: str
    file_path: str
    summary: str | None


@frozen
class EntityRef:
    name: str
    kind: str
    engine: str


@frozen
class TechnologyRef:
    kind: str  # language | framework | library | build_tool | base_image
    name: str
    version: str | None
    evidence: str | None  # "file:line"


@frozen
class MessageRef:
    direction: str
    channel: str
    provider: str
    description: str | None


@frozen
class IndexCost:
    """What the LLM spent describing one service at index time, over every run that sent its units;
    a total stays None when no call reported it (never a made-up 0)."""

    runs: int
    llm_calls: int
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None


@frozen
class ServiceDescription:
    name: str
    repository: str
    root_dir: str
    stack: str
    framework: str | None
    aliases: tuple[str, ...]
    short_desc: str | None
    long_desc: str | None
    desc_provenance: str
    calls: tuple[CallView, ...]
    apis: tuple[ApiRef, ...]
    components: tuple[ComponentRef, ...]
    persists: tuple[EntityRef, ...]
    messages: tuple[MessageRef, ...]
    called_by: tuple[str, ...]
    freshness: Freshness
    pagination: DescriptionPages = field(kw_only=True)
    #: Languages, frameworks, build tools and base images first, then declared libraries.
    technologies: tuple[TechnologyRef, ...] = ()
    #: The LLM's index cost for this service; None (and left out of answers) when it never had one.
    index_cost: IndexCost | None = None


@frozen
class ApiListItem:
    method: str
    path: str
    handler: str
    kind: str
    summary: str | None
    component: str | None
    file: str
    start_line: int


@frozen
class ApiList:
    service: str
    apis: tuple[ApiListItem, ...]
    total: int
    truncated: bool
    limit: int
    offset: int
    freshness: Freshness


@frozen
class ApiDescription:
    service: str
    method: str
    path: str
    handler: str
    kind: str
    component: str | None
    channel: str | None
    summary: str | None
    description: str | None
    doc: str | None
    summary_provenance: str
    request_shape: tuple[ShapeField, ...]
    response_shape: tuple[ShapeField, ...]
    calls: tuple[CallView, ...]
    messages: tuple[MessageRef, ...]
    validations: tuple[Validation, ...]
    evidence: tuple[Evidence, ...]
    freshness: Freshness
    also_matching: tuple[str, ...] = ()  # other handlers with the same method + path


@frozen
class EntityFieldView:
    name: str
    type: str
    nullable: bool | None
    primary_key: bool


@frozen
class EntityView:
    name: str
    kind: str
    engine: str
    class_name: str | None
    fields: tuple[EntityFieldView, ...]
    description: str | None
    shared_with: tuple[str, ...]
    provenance: str
    evidence: tuple[Evidence, ...]


@frozen
class PersistenceView:
    service: str
    entities: tuple[EntityView, ...]
    total: int
    truncated: bool
    limit: int
    offset: int
    freshness: Freshness


@frozen
class MessageView:
    direction: str
    channel: str
    provider: str
    description: str | None
    counterparts: tuple[str, ...]  # services on the other side of the channel
    handler: str | None
    provenance: str
    evidence: tuple[Evidence, ...]


@frozen
class MessagesView:
    service: str
    messages: tuple[MessageView, ...]
    total: int
    truncated: bool
    limit: int
    offset: int
    freshness: Freshness
