"""The size of a tool's whole message is counted from one serialisation of the answer, and is
exactly the size of the result the cap speaks of (structured content plus its escaped text copy)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from orbitkb.mcp.shaping import ENVELOPE_BYTES, message_size, text_of
from orbitkb.mcp.tools import _result

ANSWERS: list[Any] = [
    {},
    {"services": [{"name": "ledger", "api_count": 3, "stale": None, "ratio": 0.25, "ok": True}], "total": 1},
    {"reason": 'quotes " and \\ backslashes, a tab\tand a newline\n', "control": "\x01\x1f"},
    {"task": "café → reçu 😀", "nested": [[{"deep": ["ü", {"ß": []}]}]], "empty": ""},
    {"big": ["x" * 3000, "é" * 1500]},
]


def _by_definition(data: Any) -> int:
    result = {"content": [{"type": "text", "text": text_of(data)}], "structuredContent": data, "isError": False}
    return ENVELOPE_BYTES + len(json.dumps(result, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


@pytest.mark.parametrize("data", ANSWERS, ids=range(len(ANSWERS)))
def test_the_message_size_is_the_serialised_result_size(data: Any) -> None:
    assert message_size(data) == _by_definition(data)
    assert message_size(data, text_of(data)) == message_size(data)


def test_a_caller_that_serialised_the_answer_already_is_not_serialised_again() -> None:
    data = {"name": "ledger"}
    assert message_size(data, text="{}") == message_size({})  # the given text is what is counted


@pytest.mark.parametrize("data", ANSWERS[1:4], ids=range(3))
def test_a_result_carries_the_answer_and_its_compact_text(data: Any) -> None:
    result = _result(dict(data))
    assert result.structured_content == data
    assert [c.text for c in result.content] == [text_of(data)]


def test_long_strings_are_cut_at_every_depth_and_a_string_of_the_limit_is_kept() -> None:
    from orbitkb.mcp.shaping import MAX_TEXT, fit

    at_limit, over = "a" * MAX_TEXT, "b" * (MAX_TEXT + 1)
    data = {"top": over, "keep": at_limit, "items": [over, {"deep": [[over]], "n": 3, "none": None}], "pair": ("x",)}
    cut = fit(data, [])
    marker = "…[truncated 1 chars]"
    assert cut["top"] == "b" * MAX_TEXT + marker and cut["keep"] == at_limit
    assert cut["items"][0] == cut["top"] and cut["items"][1]["deep"] == [["b" * MAX_TEXT + marker]]
    assert cut["items"][1]["n"] == 3 and cut["items"][1]["none"] is None and cut["pair"] == ("x",)


def test_evidence_loses_its_null_fields_at_every_depth_and_nothing_else_does() -> None:
    evidence = [{"file": "ledger/app.py", "start_line": 3, "commit": None}]
    data = {"calls": [{"to": "billing", "reason": None, "evidence": evidence,
                       "steps": [{"evidence": evidence, "note": None}]}], "evidence": evidence}
    lean = _result(data).structured_content
    slim = [{"file": "ledger/app.py", "start_line": 3}]
    assert lean == {"calls": [{"to": "billing", "reason": None, "evidence": slim,
                               "steps": [{"evidence": slim, "note": None}]}], "evidence": slim}


@pytest.mark.parametrize("data", ANSWERS, ids=range(len(ANSWERS)))
def test_the_escaped_copy_is_counted_without_writing_it(data: Any) -> None:
    from orbitkb.mcp.shaping import escaped_size

    text = text_of(data)
    assert escaped_size(text) == len(json.dumps(text, ensure_ascii=False).encode("utf-8"))
    assert escaped_size(text, len(text.encode("utf-8"))) == escaped_size(text)


@pytest.mark.parametrize("data", [
    {"services": [{"name": "ledger", "reason": None}], "total": 1},  # nulls, but no evidence
    {"note": 'a reason that quotes "evidence": in its words', "evidence_count": 2},  # the word, not the key
    {"findings": [{"detail": {"callees": ["billing"]}, "services": ["ledger"]}]},
    {"calls": [{"evidence": [{"file": "a.py", "start_line": 1}]}], "ok": True},  # evidence without a null field
])
def test_an_answer_without_evidence_is_sent_as_it_is_without_a_copy(data: Any) -> None:
    result = _result(data)
    assert result.structured_content is data
    assert [c.text for c in result.content] == [text_of(data)]


def test_evidence_without_null_fields_and_with_them_in_one_answer() -> None:
    data = {"calls": [{"evidence": [{"file": "a.py", "start_line": 1}]}, {"evidence": [{"file": "b.py", "commit": None}]}]}
    result = _result(data)
    assert result.structured_content == {"calls": [{"evidence": [{"file": "a.py", "start_line": 1}]},
                                                   {"evidence": [{"file": "b.py"}]}]}
    assert [c.text for c in result.content] == [text_of(result.structured_content)]
