"""Bounded answers: every response fits a documented maximum (MAX_RESPONSE_BYTES); long text is
cut with a visible marker; an optional token_budget trims the lowest-value list items first and
reports what it omitted. Nothing is dropped without saying so."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

MAX_TEXT = 2000  # characters of one string field
MAX_RESPONSE_BYTES = 64_000
CHARS_PER_TOKEN = 4  # rough, documented estimate


def _cut_strings(value: Any) -> Any:
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return value[:MAX_TEXT] + f"…[truncated {len(value) - MAX_TEXT} chars]"
        return value
    if isinstance(value, dict):
        return {k: _cut_strings(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_cut_strings(v) for v in value]
    return value


def size_of(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def fit(data: dict[str, Any], trim_order: Sequence[str], token_budget: int | None = None) -> dict[str, Any]:
    """Cut long strings, then drop list items from the end of the lists in ``trim_order``
    (lowest value first) until the answer fits the budget and the hard cap."""
    data = _cut_strings(data)
    limit = MAX_RESPONSE_BYTES
    if token_budget is not None:
        limit = min(limit, max(200, token_budget * CHARS_PER_TOKEN))
    omitted: dict[str, int] = {}
    for key in trim_order:
        items = data.get(key)
        if not isinstance(items, list):
            continue
        while items and size_of(data) > limit:
            items.pop()
            omitted[key] = omitted.get(key, 0) + 1
        if size_of(data) <= limit:
            break
    if omitted:
        data["omitted"] = {"items": omitted, "reason": "token_budget" if token_budget else "response size cap",
                           "hint": "ask again with a larger token_budget, a smaller limit or an offset"}
    return data
