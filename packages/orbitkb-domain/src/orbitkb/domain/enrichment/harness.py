"""One unit through the LLM: generate, validate, retry once, sum the usage of every attempt.

A unit that fails twice is reported, never raised: the run goes on without it. Only
``LlmUnavailable`` (CLI missing, not logged in) escapes, since every other unit would fail the
same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import frozen

from orbitkb.domain.enrichment.schemas import DEFAULT_CAP, FIELD_CAPS, MAX_ITEMS
from orbitkb.domain.enrichment.validate import clamp, validate
from orbitkb.domain.errors import LlmCancelled, LlmError, LlmUnavailable
from orbitkb.domain.ports import LLMBackend
from orbitkb.domain.runs import LlmUsage

ATTEMPTS = 2  # the first try and one retry

RETRY_NOTE = """

Your previous answer did not match the JSON Schema: {errors}.
Answer again with one JSON object that matches the schema exactly."""


@frozen
class Attempted:
    answer: Mapping[str, Any] | None
    usage: LlmUsage
    calls: int
    prompt_bytes: int
    error: str | None = None
    #: The last attempt failed in the backend (exit status, timeout, no JSON), not on the schema.
    backend_failed: bool = False


def check(answer: Any, schema: Mapping[str, Any]) -> tuple[Mapping[str, Any] | None, list[str]]:
    """A clamped copy of ``answer`` when it is valid, else None and the violations."""
    errors = validate(answer, schema)
    if errors:
        return None, errors
    return clamp(answer, FIELD_CAPS, DEFAULT_CAP, MAX_ITEMS), []


def generate_checked(backend: LLMBackend, prompt: str, schema: Mapping[str, Any]) -> Attempted:
    usage = LlmUsage()
    calls = 0
    sent = 0
    error = "not attempted"
    backend_failed = False
    text = prompt
    for _ in range(ATTEMPTS):
        calls += 1
        sent += len(text.encode("utf-8"))
        try:
            result = backend.generate(text, schema)
        except (LlmUnavailable, LlmCancelled):
            raise
        except LlmError as exc:
            error = f"{type(exc).__name__}: {exc}"
            backend_failed = True
            text = prompt
            continue
        usage = usage + result.usage
        answer, errors = check(dict(result.data) if isinstance(result.data, Mapping) else result.data, schema)
        if answer is not None:
            return Attempted(answer, usage, calls, sent)
        error = "invalid answer: " + "; ".join(errors)
        backend_failed = False
        text = prompt + RETRY_NOTE.format(errors="; ".join(errors)[:1500])
    return Attempted(None, usage, calls, sent, error, backend_failed)
