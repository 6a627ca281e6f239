"""Strict JSON Schemas for each enrichment unit's answer, and the caps applied to valid answers.

Strict means: every object closes with ``additionalProperties: false``, every property is
required (optional values are nullable instead, as OpenAI's strict structured outputs demand),
and every classification is a closed enum. References to deterministic facts (a call, an entity,
a message) are enums of the refs the prompt listed, so an answer cannot name anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from orbitkb.domain.engines import ENGINE_CHOICES
from orbitkb.domain.model import PurposeKind
from orbitkb.domain.providers import PROVIDER_CHOICES

PURPOSE_KINDS: tuple[str, ...] = tuple(k.value for k in PurposeKind)
VALIDATION_KINDS = (
    "authentication",
    "authorization",
    "input_validation",
    "business_rule",
    "rate_limit",
    "idempotency",
    "other",
)
PROPOSED_CALL_KINDS = ("http", "grpc")
#: Longest text kept per answer field (characters); anything longer is cut, not rejected.
FIELD_CAPS = {
    "summary": 300,
    "short_desc": 300,
    "reason": 300,
    "type_desc": 160,
    "field": 120,
    "target": 120,
    "data_needed": 80,
    "description": 1200,
    "long_desc": 2000,
}
DEFAULT_CAP = 600
MAX_ITEMS = 40


def _string() -> dict[str, Any]:
    return {"type": "string"}


def _enum(values: Sequence[str]) -> dict[str, Any]:
    return {"type": "string", "enum": list(values)}


def _obj(**props: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": dict(props),
        "required": list(props),
        "additionalProperties": False,
    }


def _array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def _shape() -> dict[str, Any]:
    return _array(_obj(field=_string(), type_desc=_string(), required={"type": ["boolean", "null"]}))


def _explained_calls(call_refs: Sequence[str]) -> dict[str, Any]:
    return _array(
        _obj(
            ref=_enum(call_refs),
            reason=_string(),
            data_needed=_array(_string()),
            purpose_kind=_enum(PURPOSE_KINDS),
        )
    )


def calls_schema(call_refs: Sequence[str]) -> dict[str, Any]:
    """Calls no API handler reaches, explained by ref."""
    return _obj(calls=_explained_calls(call_refs))


def endpoint_schema(call_refs: Sequence[str]) -> dict[str, Any]:
    """One API endpoint. ``calls`` explains each deterministic call (by ref) and exists only if any."""
    props: dict[str, dict[str, Any]] = {
        "summary": _string(),
        "description": _string(),
        "request_shape": _shape(),
        "response_shape": _shape(),
        "validations": _array(_obj(kind=_enum(VALIDATION_KINDS), description=_string())),
    }
    if call_refs:
        props["calls"] = _explained_calls(call_refs)
    props["proposed_calls"] = _array(
        _obj(
            target=_string(),
            call_kind=_enum(PROPOSED_CALL_KINDS),
            reason=_string(),
            purpose_kind=_enum(PURPOSE_KINDS),
        )
    )
    return _obj(**props)


def component_schema() -> dict[str, Any]:
    return _obj(summary=_string())


def overview_schema() -> dict[str, Any]:
    return _obj(short_desc=_string(), long_desc=_string())


def persistence_schema(entity_refs: Sequence[str]) -> dict[str, Any]:
    return _obj(
        entities=_array(_obj(ref=_enum(entity_refs), description=_string(), engine=_enum(ENGINE_CHOICES))),
    )


def messaging_schema(message_refs: Sequence[str]) -> dict[str, Any]:
    return _obj(
        messages=_array(_obj(ref=_enum(message_refs), description=_string(), provider=_enum(PROVIDER_CHOICES))),
    )
