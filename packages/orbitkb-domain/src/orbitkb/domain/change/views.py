"""Typed parts of a change surface (frozen attrs): what the adapters format, never dicts.

Their JSON (``serialization.to_data``) is the answer's published shape: field order is key order;
``FlowEdge.source`` is written ``from``, and a field that is absent in that shape (a flow edge's
channel, an unknown that names no service) is left out when it is None.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen
from cattrs.gen import make_dict_unstructure_fn, override

from orbitkb.domain.model import Evidence
from orbitkb.domain.serialization import converter


@frozen
class Finding:
    """A service of one tier: likely to change (primary, secondary) or likely not to (no_change_hint),
    with why, how sure (for no_change_hint: that it does not change) and the spans that say so."""

    service: str
    reason: str
    confidence: float
    evidence: tuple[Evidence, ...]


@frozen
class SimilarTask:
    """An earlier run whose task reads like this one, with what became of it (a verification, the
    feedback counts, or "no feedback yet")."""

    run_id: int | None
    task: str
    similarity: float
    primary_services: tuple[str, ...]
    outcome: str


@frozen
class FlowEdge:
    """A call or message link between two services of the answer."""

    source: str
    to: str
    type: str
    channel: str | None = None


@frozen
class OutsideCall:
    """A call from an answered service to something not indexed: a vendor, or an internal service
    whose repository is not indexed yet."""

    service: str
    via_service: str
    reason: str
    confidence: float
    evidence: tuple[Evidence, ...]


@frozen
class ContractAtRisk:
    """An API or event of an answered service that other services use."""

    contract: str
    kind: str
    producer: str
    consumers: tuple[str, ...]
    reason: str
    evidence: tuple[Evidence, ...]


@frozen
class EntityAffected:
    service: str
    entity: str
    kind: str
    engine: str | None
    evidence: tuple[Evidence, ...]


@frozen
class Unknown:
    """What the answer could not know (``status``: unknown, stale, unknown_freshness)."""

    status: str
    reason: str
    suggestion: str
    service: str | None = None


@frozen
class NextQuery:
    """A tool call worth making next, with its arguments."""

    tool: str
    arguments: dict[str, str]
    reason: str


def _unknown(u: Unknown) -> dict[str, Any]:
    head: dict[str, Any] = {"status": u.status}
    if u.service is not None:
        head["service"] = u.service
    return {**head, "reason": u.reason, "suggestion": u.suggestion}


converter.register_unstructure_hook(FlowEdge, make_dict_unstructure_fn(
    FlowEdge, converter, source=override(rename="from"), channel=override(omit_if_default=True)))
converter.register_unstructure_hook(Unknown, _unknown)
