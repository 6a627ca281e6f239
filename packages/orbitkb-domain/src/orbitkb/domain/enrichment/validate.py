"""A tiny JSON Schema validator for the subset the enrichment schemas use, plus output clamping.

The domain may not depend on ``jsonschema``; the schemas only use ``type`` (one or a list),
``properties``, ``required``, ``additionalProperties: false``, ``items`` and ``enum``, so that
is all this checks. Anything outside the subset in a schema is a programming error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_SUPPORTED = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "description"}
)

_TYPE_CHECKS: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    # bool is an int in Python; JSON keeps them apart.
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}

#: Errors beyond this many are not worth listing (a retry prompt quotes them).
MAX_ERRORS = 20


def validate(instance: Any, schema: Mapping[str, Any]) -> list[str]:
    """Every violation of ``schema`` by ``instance``, as ``"$.path: message"``, sorted; [] = valid."""
    errors: list[str] = []
    _check(instance, schema, "$", errors)
    return sorted(errors)[:MAX_ERRORS]


def _check(value: Any, schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    unknown = set(schema) - _SUPPORTED
    if unknown:
        raise ValueError(f"schema keyword(s) outside the supported subset at {path}: {sorted(unknown)}")
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_TYPE_CHECKS[t](value) for t in names):
            errors.append(f"{path}: expected {'|'.join(names)}, got {type(value).__name__}")
            return
    if "enum" in schema and value not in schema["enum"]:
        shown = ", ".join(repr(e) for e in list(schema["enum"])[:12])
        errors.append(f"{path}: {_short(value)!r} is not one of [{shown}]")
        return
    if isinstance(value, dict):
        _check_object(value, schema, path, errors)
    elif isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            _check(item, schema["items"], f"{path}[{i}]", errors)


def _check_object(value: dict[str, Any], schema: Mapping[str, Any], path: str, errors: list[str]) -> None:
    props: Mapping[str, Any] = schema.get("properties", {})
    for name in schema.get("required", ()):
        if name not in value:
            errors.append(f"{path}: missing required property {name!r}")
    if schema.get("additionalProperties") is False:
        for name in value:
            if name not in props:
                errors.append(f"{path}: unexpected property {_short(name)!r}")
    for name, sub in props.items():
        if name in value:
            _check(value[name], sub, f"{path}.{name}", errors)


def _short(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 60:
        return value[:57] + "..."
    return value


def clamp(value: Any, caps: Mapping[str, int], default_cap: int, max_items: int, key: str = "") -> Any:
    """A copy of validated output with strings cut to their field's cap and arrays to ``max_items``.

    An LLM may return an enormous string that is still schema-valid; the knowledge base stores
    lean text, so long values are cut (with an ellipsis) rather than rejected.
    """
    if isinstance(value, str):
        cap = caps.get(key, default_cap)
        return value if len(value) <= cap else value[: cap - 1].rstrip() + "…"
    if isinstance(value, list):
        return [clamp(v, caps, default_cap, max_items, key) for v in value[:max_items]]
    if isinstance(value, dict):
        return {k: clamp(v, caps, default_cap, max_items, k) for k, v in value.items()}
    return value
