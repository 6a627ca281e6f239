"""Which column best explains a search hit: a phrase occurs in a column when its tokens follow each
other there, the last one matched as a prefix (FTS5's ``"a b"*``)."""

from __future__ import annotations

import pytest

from orbitkb.sql.terms import best_field, contains, tokens


@pytest.mark.parametrize(("column", "phrase", "expected"), [
    ("refund card payments", ("payment",), True),  # the last token as a prefix
    ("refund card payments", ("card", "pay"), True),
    ("refund card payments", ("refund", "pay"), False),  # not next to each other
    ("refund card payments", ("payments", "card"), False),  # wrong order
    ("card", ("card", "payment"), False),  # longer than the column
    ("", ("card",), False),
    ("prepaid card", ("paid",), False),  # a prefix, never an infix
    ("Café Crème", ("cafe", "cr"), True),
])
def test_a_phrase_occurs_when_its_tokens_follow_each_other(column: str, phrase: tuple[str, ...], expected: bool) -> None:
    assert contains(tokens(column), phrase) is expected
    assert contains(tuple(tokens(column)), phrase) is expected


def test_the_best_field_weighs_matched_phrases_by_column() -> None:
    found = [("ledger",), ("post", "entr")]
    assert best_field({"name_text": "ledger", "keywords": "post entries journal"}, found) == "name_text"
    assert best_field({"name_text": "books", "keywords": "post entries ledger"}, found) == "keywords"
    assert best_field({"name_text": "books", "keywords": "journal"}, found) == "text"
    assert best_field({"name_text": None, "keywords": None}, found) == "text"  # type: ignore[dict-item]


@pytest.mark.parametrize("column", ["refund card payments", "card", "", "prepaid card", "Café Crème", "a b a b c"])
@pytest.mark.parametrize("phrase", [("payment",), ("card", "pay"), ("refund", "pay"), ("paid",), ("cafe", "cr"),
                                    ("a", "b", "c"), ("b", "a"), ("card",)])
def test_the_best_field_finds_a_phrase_exactly_where_contains_does(column: str, phrase: tuple[str, ...]) -> None:
    in_name = best_field({"name_text": column, "keywords": ""}, [phrase]) == "name_text"
    assert in_name is contains(tokens(column), phrase)
