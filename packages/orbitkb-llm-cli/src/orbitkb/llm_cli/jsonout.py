"""Defensive reading of CLI JSON output: envelopes, JSONL events, answers wrapped in prose or
code fences, and numbers that may be missing or of the wrong type (None, never a made-up 0)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

_FENCE = re.compile(r"```(?:json)?\s*(\{.*\})\s*```", re.DOTALL)


def last_json_object(text: str) -> dict[str, Any] | None:
    """The whole output as one JSON object, else the last line that is one."""
    text = text.strip()
    if not text:
        return None
    whole = _loads(text)
    if isinstance(whole, dict):
        return whole
    for line in reversed(text.splitlines()):
        obj = _loads(line.strip())
        if isinstance(obj, dict):
            return obj
    return None


def json_lines(text: str) -> Iterator[dict[str, Any]]:
    """Every line of ``text`` that is a JSON object (other lines are progress noise)."""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            obj = _loads(line)
            if isinstance(obj, dict):
                yield obj


def parse_answer(value: Any) -> dict[str, Any] | None:
    """An answer object from a final message: plain JSON, or JSON inside a ``` fence."""
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.strip():
        return None
    obj = _loads(value.strip())
    if isinstance(obj, dict):
        return obj
    m = _FENCE.search(value)
    if m:
        obj = _loads(m.group(1))
        if isinstance(obj, dict):
            return obj
    return None


def as_int(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if value >= 0 else None


def as_float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value >= 0 else None


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None
