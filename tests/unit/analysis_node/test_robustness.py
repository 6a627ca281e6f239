"""Bad input never crashes: syntax errors, garbage, deep nesting, huge files; output is deterministic."""

from __future__ import annotations

import json

from orbitkb.analysis.node import ANALYZER

from .support import analyze, parse_all


def test_syntax_error_keeps_what_parsed_and_warns() -> None:
    parsed = ANALYZER.parse(
        "routes.js",
        "const express = require('express');\nconst r = express.Router();\nr.get('/ok', (q, s) => s.end());\n"
        "function broken( {\n",
    )
    assert "error" not in parsed
    assert parsed["warnings"] and "syntax error" in parsed["warnings"][0]
    assert [r["method"] for r in parsed["routes"]] == ["GET"]


def test_unusable_file_becomes_a_gap() -> None:
    facts = analyze({"bad.ts": "}}}} ((( <<<< \x00\x01 @@@", "ok.ts": "export const A = 1;\n"})
    assert [(g.file, g.kind) for g in facts.gaps] == [("bad.ts", "parse_error")]
    assert facts.gaps[0].reason.startswith("syntax error")


def test_deep_nesting_and_huge_files_do_not_raise() -> None:
    deep = "const x = " + "(" * 3000 + "1" + ")" * 3000 + ";\n"
    assert isinstance(ANALYZER.parse("deep.js", deep), dict)
    concat = "const u = " + " + ".join(["'a'"] * 5000) + ";\n"
    assert isinstance(ANALYZER.parse("concat.js", concat), dict)
    huge = "// x\n" * 400_000
    assert "error" in ANALYZER.parse("bundle.min.js", huge)
    assert ANALYZER.parse("types.d.ts", "export declare const x: number;") == {}


def test_output_is_json_and_deterministic() -> None:
    files = {
        "a.js": "const app = require('express')();\napp.get('/a', h);\napp.listen(1);\nfunction h() {}\n",
        "b.ts": "import axios from 'axios';\nexport const go = () => axios.get('http://x/y');\n",
    }
    first = parse_all(files)
    assert json.loads(json.dumps(first)) == first
    assert analyze(files) == analyze(dict(reversed(list(files.items()))))


def test_type_declaration_files_are_not_parsed() -> None:
    from orbitkb.analysis.node import ANALYZER

    for path in ("types/index.d.ts", "lib/schema.d.cts", "lib/schema.d.mts"):
        assert ANALYZER.parse(path, "export declare const x: <T,>(a: T) => T;\nexport type Y = {a: 1}") == {}
