"""Folding a validated answer into the facts: descriptive fields only, facts never overwritten.

- summaries and descriptions are replaced (they are descriptive, offline text came from facts);
- shapes are filled only when static analysis found none; LLM validations replace earlier LLM
  validations and sit next to deterministic ones;
- a deterministic call gets reason / data_needed / purpose_kind, nothing else changes;
- a call the LLM proposes is kept only when the name filter resolves its target, with
  provenance ``llm`` and a lower confidence;
- an entity's engine or a message's provider stays as the facts say; when they say "unknown",
  the LLM's suggestion is added to the description, marked as such.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import evolve

from orbitkb.domain.enrichment.names import NameFilter
from orbitkb.domain.enrichment.units import UnitSpec
from orbitkb.domain.ids import make_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Component,
    Message,
    PersistenceEntity,
    Provenance,
    PurposeKind,
    Service,
    ServiceCall,
    ShapeField,
    Validation,
)

#: Confidence given to a call only the LLM saw (static calls have 1.0).
LLM_CALL_CONFIDENCE = 0.5


def _shape(items: Sequence[Mapping[str, Any]]) -> tuple[ShapeField, ...]:
    return tuple(ShapeField(i["field"], i["type_desc"], i["required"]) for i in items if i["field"].strip())


def apply_endpoint(
    api: Api,
    answer: Mapping[str, Any],
    unit: UnitSpec,
    calls: Mapping[str, ServiceCall],
    names: NameFilter,
) -> tuple[Api, list[ServiceCall], list[str]]:
    """The enriched api, the calls to write (explained + accepted proposals), dropped targets."""
    kept_validations = tuple(v for v in api.validations if v.provenance != Provenance.LLM)
    new_api = evolve(
        api,
        summary=answer["summary"],
        description=answer["description"],
        summary_provenance=Provenance.LLM,
        request_shape=api.request_shape or _shape(answer["request_shape"]),
        response_shape=api.response_shape or _shape(answer["response_shape"]),
        validations=kept_validations
        + tuple(Validation(v["kind"], v["description"], Provenance.LLM) for v in answer["validations"]),
    )
    out = explain_calls(calls, answer, unit)
    dropped: list[str] = []
    known_targets = {c.to_service_id or c.target.lower() for c in calls.values() if api.id in c.from_api_ids}
    for item in answer["proposed_calls"]:
        resolved = names.resolve(item["target"])
        if resolved is None or resolved.to_service_id == api.service_id:
            dropped.append(item["target"])
            continue
        if (resolved.to_service_id or resolved.target.lower()) in known_targets:
            continue  # static analysis already has it
        known_targets.add(resolved.to_service_id or resolved.target.lower())
        out.append(
            ServiceCall(
                id=make_id("call", api.service_id, api.id, "llm", resolved.target),
                from_service_id=api.service_id,
                call_kind=CallKind(item["call_kind"]),
                target=resolved.target,
                target_kind=resolved.target_kind,
                resource_type=resolved.resource_type,
                to_service_id=resolved.to_service_id,
                from_api_id=api.id,
                from_component_id=api.component_id,
                reason=item["reason"],
                purpose_kind=PurposeKind(item["purpose_kind"]),
                confidence=LLM_CALL_CONFIDENCE,
                evidence=unit.evidence,
                provenance=Provenance.LLM,
            )
        )
    return new_api, out, dropped


def explain_calls(
    calls: Mapping[str, ServiceCall], answer: Mapping[str, Any], unit: UnitSpec
) -> list[ServiceCall]:
    """The deterministic calls an answer explains by ref, with reason, data and purpose."""
    out: list[ServiceCall] = []
    for item in answer.get("calls", ()):
        call = calls.get(unit.refs.get(item["ref"], ""))
        if call is not None:
            out.append(
                evolve(
                    call,
                    reason=item["reason"],
                    data_needed=tuple(d for d in item["data_needed"] if d.strip()),
                    purpose_kind=PurposeKind(item["purpose_kind"]),
                )
            )
    return out


def apply_component(component: Component, answer: Mapping[str, Any]) -> Component:
    return evolve(component, summary=answer["summary"], summary_provenance=Provenance.LLM)


def apply_overview(service: Service, answer: Mapping[str, Any]) -> Service:
    return evolve(
        service,
        short_desc=answer["short_desc"],
        long_desc=answer["long_desc"],
        desc_provenance=Provenance.LLM,
    )


def apply_persistence(
    entities: Mapping[str, PersistenceEntity], answer: Mapping[str, Any], unit: UnitSpec
) -> list[PersistenceEntity]:
    out: dict[str, PersistenceEntity] = {}
    for item in answer["entities"]:
        entity = entities.get(unit.refs.get(item["ref"], ""))
        if entity is not None:
            text = _with_guess(item["description"], "engine", entity.engine, item["engine"])
            out[entity.id] = evolve(entity, description=text)
    return [out[k] for k in sorted(out)]


def apply_messaging(
    messages: Mapping[str, Message], answer: Mapping[str, Any], unit: UnitSpec
) -> list[Message]:
    out: dict[str, Message] = {}
    for item in answer["messages"]:
        message = messages.get(unit.refs.get(item["ref"], ""))
        if message is not None:
            text = _with_guess(item["description"], "provider", message.provider, item["provider"])
            out[message.id] = evolve(message, description=text)
    return [out[k] for k in sorted(out)]


def _with_guess(description: str, what: str, fact: str, guess: str) -> str:
    """The description, plus the LLM's guess when the facts do not know the engine/provider.

    The guess is not written into the fact field: that field is part of the unit's own input,
    and the model has no per-field provenance to tell a guess from a fact (see the report)."""
    if fact != "unknown" or guess == "unknown":
        return description
    return f"{description.rstrip()} ({what} not found by static analysis; the LLM suggests {guess})"
