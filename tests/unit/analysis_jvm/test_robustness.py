"""Bad input never crashes the JVM analyzer; folding helpers and Kotlin grammar repairs."""

from __future__ import annotations

import json

import pytest

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.jvm import ANALYZER
from orbitkb.analysis.jvm.entities import snake
from orbitkb.analysis.jvm.evaluate import placeholders

CTX = ServiceContext("svc", ".", "jvm-spring", "repo")


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("A.java", ""),
        ("A.java", "\x00\x01\x02 binary \ufffd\ufffd garbage {{{{"),
        ("A.kt", "class {{{ fun ( @ @ @"),
        ("A.java", "class A { String s = " + " + ".join(['"x"'] * 3000) + "; }"),
        ("A.java", "class A { void m() { " + "f(" * 2000 + ")" * 2000 + "; } }"),
        ("A.kt", '@RestController class X { @GetMapping("/a" fun a() = 1 }'),
    ],
)
def test_bad_input_gives_a_result_or_an_error_never_an_exception(path, text):
    out = ANALYZER.parse(path, text)
    json.dumps(out)
    assert "error" in out or "classes" in out
    ANALYZER.link(CTX, {path: out})


def test_unreadable_file_becomes_a_gap():
    out = ANALYZER.parse("A.java", "}}}} not java at all {{{{ ;;;")
    facts = ANALYZER.link(CTX, {"A.java": out, "B.java": {"error": "boom"}})
    assert [(g.file, g.kind, g.reason) for g in facts.gaps] == [
        ("A.java", "parse_error", "java syntax error at line 1; nothing could be read"),
        ("B.java", "parse_error", "boom"),
    ]


def test_kotlin_annotations_on_their_own_lines_are_kept():
    # tree-sitter-kotlin reads this class as an expression; the reader repairs it
    text = (
        'package x\n\nimport a.b\n\n@RestController\n@RequestMapping("/api")\nclass C {\n'
        '  @GetMapping("/a")\n  fun a() = 1\n}\n'
    )
    facts = ANALYZER.link(CTX, {"C.kt": ANALYZER.parse("C.kt", text)})
    assert [(a.method, a.path, a.handler, a.start_line) for a in facts.apis] == [("GET", "/api/a", "C.a", 8)]


def test_link_is_deterministic():
    text = '@RestController class A { @GetMapping({"/b", "/a"}) String m() { return ""; } }'
    parsed = {"A.java": ANALYZER.parse("A.java", text)}
    assert ANALYZER.link(CTX, parsed) == ANALYZER.link(CTX, json.loads(json.dumps(parsed)))


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("/x", [["lit", "/x"]]),
        ("${orders.url}", [["prop", "orders.url", None]]),
        ("${orders.url:http://o:8080}/api", [["prop", "orders.url", "http://o:8080"], ["lit", "/api"]]),
        ("${a:${b:c}}", [["prop", "a", "${b:c}"]]),
        ("#{@bean.topic}", [["unknown", "#{@bean.topic}"]]),
    ],
)
def test_placeholders(text, parts):
    assert placeholders(text) == parts


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("Order", "order"),
        ("OrderLine", "order_line"),
        ("HTTPRequest", "httprequest"),
        ("Item2Order", "item2_order"),
    ],
)
def test_spring_physical_naming(name, table):
    assert snake(name) == table
