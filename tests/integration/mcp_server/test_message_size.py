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


def test_a_fitted_answer_is_written_once_for_its_size_and_its_text_block(monkeypatch: pytest.MonkeyPatch) -> None:
    from orbitkb.mcp import shaping, tools

    written: list[Any] = []
    real = shaping.text_of

    def counted(data: Any) -> str:
        written.append(data)
        return real(data)

    monkeypatch.setattr(shaping, "text_of", counted)
    monkeypatch.setattr(tools, "text_of", counted)
    data = {"findings": [{"kind": "cycle", "services": ["ledger", "billing"], "reason": "r" * 300}], "total": 1}
    result = _result(shaping.fit(data, ["findings"]))
    assert len(written) == 1
    assert result.structured_content == data and [c.text for c in result.content] == [real(data)]


@pytest.mark.parametrize("value", [
    "q" * 3000,  # a plain long string
    ('"quoted", ' * 400)[:2500],  # an escaped quote every few characters: no long run between quotes
    "\\" * 2001,  # backslashes escape to twice their length
    "é" * 2001,
])
def test_every_string_over_the_limit_is_cut_whatever_it_holds(value: str) -> None:
    from orbitkb.mcp.shaping import MAX_TEXT, fit

    cut = fit({"items": [{"reason": value}], "short": "ok"}, [])
    assert cut["items"][0]["reason"] == value[:MAX_TEXT] + f"…[truncated {len(value) - MAX_TEXT} chars]"
    assert cut["short"] == "ok"


@pytest.mark.parametrize("value", ['"' * 2000, "\\" * 2000, "x" * 2000, "ab" * 400])
def test_a_string_at_the_limit_is_kept_even_when_its_text_is_longer(value: str) -> None:
    from orbitkb.mcp.shaping import fit

    data = {"reason": value, "many": ["y" * 1500] * 3}
    assert fit(data, []) == data


def test_trimming_to_the_cap_leaves_the_callers_answer_as_it_was() -> None:
    from orbitkb.mcp.shaping import MAX_RESPONSE_BYTES, fit, message_size

    items = [{"name": f"service-{i}", "reason": "z" * 1000} for i in range(100)]
    data = {"items": items, "total": 100}
    fitted = fit(data, ["items"])
    assert 0 < len(fitted["items"]) < 100 and fitted["omitted"]["items"] == {"items": 100 - len(fitted["items"])}
    assert message_size(fitted) <= MAX_RESPONSE_BYTES and fitted.size == message_size(fitted)
    assert data == {"items": items, "total": 100} and len(data["items"]) == 100
