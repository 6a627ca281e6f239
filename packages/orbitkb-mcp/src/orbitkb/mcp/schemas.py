"""Output schemas of the tools: the top-level shape of each answer (what a client can rely on),
kept shallow so that tools/list stays small. Every key is optional because an empty knowledge base
answers with guidance ({"empty": true, "guidance": ...}) instead of data."""

from __future__ import annotations

from typing import Any, TypedDict

Items = list[dict[str, Any]]


class Guidance(TypedDict, total=False):
    """Not part of the published schemas (every answer may carry these keys):
    ``empty``/``guidance`` on an empty knowledge base, ``omitted`` when a budget trimmed lists."""


class RepositoriesOut(Guidance, total=False):
    repositories: Items
    total: int
    truncated: bool
    limit: int
    offset: int


class ServicesOut(Guidance, total=False):
    services: Items
    total: int
    truncated: bool
    limit: int
    offset: int


class ServiceOut(Guidance, total=False):
    name: str
    repository: str
    stack: str
    framework: str | None
    short_desc: str | None
    long_desc: str | None
    calls: Items
    apis: Items
    components: Items
    persists: Items
    messages: Items
    called_by: list[str]
    freshness: dict[str, Any]
    pagination: dict[str, Any]
    technologies: Items
    index_cost: dict[str, Any]


class ApisOut(Guidance, total=False):
    service: str
    apis: Items
    total: int
    truncated: bool
    freshness: dict[str, Any]


class ApiOut(Guidance, total=False):
    service: str
    method: str
    path: str
    handler: str
    request_shape: Items
    response_shape: Items
    calls: Items
    validations: Items
    evidence: Items
    freshness: dict[str, Any]


class EntitiesOut(Guidance, total=False):
    service: str
    entities: Items
    total: int
    truncated: bool
    freshness: dict[str, Any]


class MessagesOut(Guidance, total=False):
    service: str
    messages: Items
    total: int
    truncated: bool
    freshness: dict[str, Any]


class SearchOut(Guidance, total=False):
    query: str
    mode: str
    hits: Items
    note: str | None


class RelationshipsOut(Guidance, total=False):
    service: str
    relationships: Items
    freshness: dict[str, Any]


class FlowOut(Guidance, total=False):
    reachable: bool
    hops: int | None
    path: Items
    alternatives: list[Items]
    note: str | None


class SmellsOut(Guidance, total=False):
    run_id: int | None
    findings: Items
    total: int
    truncated: bool
    trend: dict[str, Any] | None
    note: str | None


class SurfaceOut(Guidance, total=False):
    primary: Items
    secondary: Items
    no_change_hint: Items
    flow: Items
    external_integrations: Items
    unmapped_internal_hint: Items
    contracts_at_risk: Items
    persistence_affected: Items
    unknowns: Items
    freshness: dict[str, Any]
    recommended_next_queries: Items
    similar_past_tasks: Items
    run_id: int | None
    run_cost_usd: float | None
    note: str | None


class FeedbackOut(Guidance, total=False):
    run_id: int
    service: str
    outcome: str
    history: dict[str, int]
    notice: str


class VerificationOut(Guidance, total=False):
    run_id: int
    predicted: list[str]
    actual: list[str]
    precision: float | None
    recall: float | None
    verification_id: int | None
    notice: str


class ProvenanceOut(Guidance, total=False):
    service: str | None
    items: Items
    dependents: list[str]
    note: str | None


class RefreshOut(Guidance, total=False):
    refreshed: Items


class BlindSpotsOut(Guidance, total=False):
    repositories: Items
    gaps: Items
    total: int
    truncated: bool
