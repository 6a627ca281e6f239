"""Bounded answers: every response fits a documented maximum (MAX_RESPONSE_BYTES); long text is
cut with a visible marker; an optional token_budget trims the lowest-value list items first and
reports what it omitted. Nothing is dropped without saying so.

The cap is on the whole JSON-RPC message a client receives: the answer travels twice in it (as
structured content and as the JSON text block older clients read), and the text copy is escaped
once more, so the answer itself gets a little under half the cap."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

MAX_TEXT = 2000  # characters of one string field
MAX_RESPONSE_BYTES = 64_000  # the whole message, both copies of the answer and the envelope
ENVELOPE_BYTES = 400  # the JSON-RPC envelope, the id, and the "omitted" note added after trimming
CHARS_PER_TOKEN = 4  # rough, documented estimate


#: Values a walk over an answer leaves as they are, without a call per value (most of an answer).
LEAVES = frozenset({int, float, bool, type(None)})


#: An opening quote and more than MAX_TEXT characters before the next quote. The JSON text of a
#: string longer than MAX_TEXT starts so (its escaped form is never shorter) unless it holds an
#: escaped quote, looked for apart: an answer whose text has neither holds no string to cut.
_LONG_STRING = re.compile(f'"[^"]{{{MAX_TEXT + 1}}}')


def _may_hold_long_strings(text: str) -> bool:
    return len(text) > MAX_TEXT and (_LONG_STRING.search(text) is not None or '\\"' in text)


class Shaped(dict[str, Any]):
    """An answer as ``fit`` left it, with ``text``, its compact JSON (``text_of``), and ``size``,
    the bytes of the message carrying it: written once to measure the answer, then sent as the
    tool result's text block instead of being written again."""

    __slots__ = ("text", "size")

    def __init__(self, data: dict[str, Any], text: str, size: int) -> None:
        super().__init__(data)
        self.text = text
        self.size = size


def _cut_strings(value: Any) -> Any:
    if isinstance(value, str):
        if len(value) > MAX_TEXT:
            return value[:MAX_TEXT] + f"…[truncated {len(value) - MAX_TEXT} chars]"
        return value
    if isinstance(value, dict):
        return {k: v if type(v) in LEAVES or (type(v) is str and len(v) <= MAX_TEXT) else _cut_strings(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in LEAVES or (type(v) is str and len(v) <= MAX_TEXT) else _cut_strings(v) for v in value]
    return value


#: The tool result around its two copies of the answer, as compact JSON writes it:
#: ``{"content":[{"type":"text","text":TEXT}],"structuredContent":DATA,"isError":false}``
_RESULT_BYTES = len(b'{"content":[{"type":"text","text":}],"structuredContent":,"isError":false}')


def size_of(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def text_of(data: Any) -> str:
    """The answer as the one compact JSON text block a tool result carries."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


def message_size(data: Any, text: str | None = None) -> int:
    """Bytes of the tool result carrying ``data``: structured content plus the compact JSON text
    (``text``, when the caller has it already) — counted from one serialisation of the answer: the
    structured copy is that text, the text copy that text escaped once more."""
    text = text_of(data) if text is None else text
    body = len(text.encode("utf-8"))
    return ENVELOPE_BYTES + _RESULT_BYTES + body + escaped_size(text, body)


def escaped_size(text: str, size: int | None = None) -> int:
    """Bytes of ``text`` (compact JSON from ``text_of``, ``size`` bytes long) written once more as a
    JSON string, counted without writing it: the two quotes, plus one backslash before each quote
    and each backslash — the only characters that escape, since the JSON text of an answer holds no
    raw control character (those are escaped inside its strings already)."""
    size = len(text.encode("utf-8")) if size is None else size
    return size + 2 + text.count('"') + text.count("\\")


def _fits(data: Any, budget: int | None) -> bool:
    return message_size(data) <= MAX_RESPONSE_BYTES and (budget is None or size_of(data) <= budget)


def _trim(data: dict[str, Any], key: str, budget: int | None) -> int:
    """Keep the longest prefix of ``data[key]`` that fits (a binary search); return how many went."""
    everything = list(data[key])
    lo, hi = 0, len(everything)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        data[key] = everything[:mid]
        if _fits(data, budget):
            lo = mid
        else:
            hi = mid - 1
    data[key] = everything[:lo]
    return len(everything) - lo


def fit(data: dict[str, Any], trim_order: Sequence[str], token_budget: int | None = None) -> Shaped:
    """Cut long strings, then drop list items from the end of the lists in ``trim_order``
    (lowest value first) until the answer fits the budget and the whole message the hard cap.
    The caller's ``data`` is left as it was. Most answers fit as they are: they are written once,
    and walked only when their text may hold a string to cut."""
    text = text_of(data)
    if _may_hold_long_strings(text):
        data = _cut_strings(data)
        text = text_of(data)
    budget = None if token_budget is None else max(200, token_budget * CHARS_PER_TOKEN)
    size = message_size(data, text)
    if size <= MAX_RESPONSE_BYTES and (budget is None or len(text.encode("utf-8")) <= budget):
        return Shaped(data, text, size)
    data = dict(data)  # its lists are cut below: not the caller's
    omitted: dict[str, int] = {}
    for key in trim_order:
        if _fits(data, budget):
            break
        if isinstance(data.get(key), list) and data[key]:
            gone = _trim(data, key, budget)
            if gone:
                omitted[key] = gone
    if omitted:
        before = data.get("omitted")
        for key, n in (before.get("items", {}) if isinstance(before, dict) else {}).items():
            omitted[key] = omitted.get(key, 0) + n
        data["omitted"] = {"items": omitted, "reason": "token_budget" if token_budget else "response size cap",
                           "hint": "ask again with a larger token_budget, a smaller limit or an offset"}
    text = text_of(data)
    return Shaped(data, text, message_size(data, text))


def cap(data: dict[str, Any]) -> dict[str, Any]:
    """The last guard for every tool: if the message is still over the cap (a tool that trims
    nothing, or lists the tool did not name), trim the largest lists until it fits; an answer with
    no list left to trim is replaced by a short note saying so."""
    if message_size(data) <= MAX_RESPONSE_BYTES:
        return data
    data = _cut_strings(dict(data))
    lists = sorted((k for k, v in data.items() if isinstance(v, list) and v), key=lambda k: -size_of(data[k]))
    fitted = fit(data, lists)
    if message_size(fitted) <= MAX_RESPONSE_BYTES:
        return fitted
    return {"truncated": True, "reason": "response size cap",
            "hint": "the answer is larger than this server sends at once; ask with a smaller limit or an offset"}
