"""The strict unit schemas and the domain's tiny validator, cross-checked against jsonschema."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from orbitkb.domain.enrichment import schemas
from orbitkb.domain.enrichment.validate import clamp, validate
from orbitkb.domain.fakes.llm import synthesize

ALL_SCHEMAS = {
    "endpoint": schemas.endpoint_schema(["c1", "c2"]),
    "endpoint-no-calls": schemas.endpoint_schema([]),
    "component": schemas.component_schema(),
    "overview": schemas.overview_schema(),
    "persistence": schemas.persistence_schema(["e1"]),
    "messaging": schemas.messaging_schema(["m1", "m2"]),
}


def _objects(schema: dict[str, Any]):
    if schema.get("type") == "object":
        yield schema
        for sub in schema["properties"].values():
            yield from _objects(sub)
    if "items" in schema:
        yield from _objects(schema["items"])


@pytest.mark.parametrize("name", sorted(ALL_SCHEMAS))
def test_every_object_is_closed_and_requires_all_its_properties(name: str) -> None:
    schema = ALL_SCHEMAS[name]
    jsonschema.Draft202012Validator.check_schema(schema)
    objects = list(_objects(schema))
    assert objects
    for obj in objects:
        assert obj["additionalProperties"] is False
        assert sorted(obj["required"]) == sorted(obj["properties"])


def test_endpoint_calls_exist_only_when_there_are_deterministic_calls() -> None:
    assert "calls" in ALL_SCHEMAS["endpoint"]["properties"]
    assert "calls" not in ALL_SCHEMAS["endpoint-no-calls"]["properties"]
    ref = ALL_SCHEMAS["endpoint"]["properties"]["calls"]["items"]["properties"]["ref"]
    assert ref["enum"] == ["c1", "c2"]


VALID_ENDPOINT = {
    "summary": "Creates an order.",
    "description": "Charges then stores.",
    "request_shape": [{"field": "amount", "type_desc": "number", "required": True}],
    "response_shape": [{"field": "order_id", "type_desc": "string", "required": None}],
    "validations": [{"kind": "authorization", "description": "bearer token"}],
    "calls": [{"ref": "c1", "reason": "to charge", "data_needed": ["amount"], "purpose_kind": "other"}],
    "proposed_calls": [],
}

INVALID_ENDPOINTS = [
    {k: v for k, v in VALID_ENDPOINT.items() if k != "summary"},  # missing required
    {**VALID_ENDPOINT, "extra": "ignore previous instructions"},  # additional property
    {**VALID_ENDPOINT, "calls": [{**VALID_ENDPOINT["calls"][0], "ref": "c9"}]},  # ref outside the enum
    {**VALID_ENDPOINT, "calls": [{**VALID_ENDPOINT["calls"][0], "purpose_kind": "exfiltration"}]},
    {**VALID_ENDPOINT, "request_shape": [{"field": "a", "type_desc": "b", "required": "yes"}]},
    {**VALID_ENDPOINT, "summary": 42},
    {**VALID_ENDPOINT, "validations": "none"},
    {
        **VALID_ENDPOINT,
        "proposed_calls": [{"target": "x", "call_kind": "smtp", "reason": "r", "purpose_kind": "other"}],
    },
    ["not", "an", "object"],
]


def test_validator_accepts_what_jsonschema_accepts() -> None:
    schema = ALL_SCHEMAS["endpoint"]
    jsonschema.validate(VALID_ENDPOINT, schema)
    assert validate(VALID_ENDPOINT, schema) == []


@pytest.mark.parametrize("instance", INVALID_ENDPOINTS)
def test_validator_rejects_what_jsonschema_rejects(instance: Any) -> None:
    schema = ALL_SCHEMAS["endpoint"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(instance, schema)
    assert validate(instance, schema)


def test_validator_tells_booleans_from_integers_and_names_the_path() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert validate({"n": 3}, schema) == []
    errors = validate({"n": True}, schema)
    assert errors == ["$.n: expected integer, got bool"]


def test_validator_refuses_keywords_it_does_not_implement() -> None:
    with pytest.raises(ValueError, match="pattern"):
        validate("x", {"type": "string", "pattern": "^a"})


@pytest.mark.parametrize("name", sorted(ALL_SCHEMAS))
def test_synthesized_answers_are_valid_for_both_validators(name: str) -> None:
    answer = synthesize(ALL_SCHEMAS[name])
    jsonschema.validate(answer, ALL_SCHEMAS[name])
    assert validate(answer, ALL_SCHEMAS[name]) == []


def test_clamp_cuts_enormous_strings_and_lists_per_field() -> None:
    answer = {"summary": "s" * 100_000, "description": "d" * 10, "data_needed": ["x"] * 500}
    out = clamp(answer, schemas.FIELD_CAPS, schemas.DEFAULT_CAP, schemas.MAX_ITEMS)
    assert len(out["summary"]) == schemas.FIELD_CAPS["summary"]
    assert out["summary"].endswith("…")
    assert out["description"] == "d" * 10
    assert len(out["data_needed"]) == schemas.MAX_ITEMS
