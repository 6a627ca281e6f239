"""Bad input never crashes: syntax errors, NUL bytes, deep nesting, cycles, huge files."""

import json

from pyana_support import apis, link_sources, link_tree

from orbitkb.analysis.facts import ServiceContext
from orbitkb.analysis.python import ANALYZER

CTX = ServiceContext("svc", "svc", "python", "r")


def test_syntax_error_becomes_an_error_and_a_gap_without_losing_other_files():
    bad = ANALYZER.parse("svc/bad.py", "def broken(:\n    pass\n")
    assert set(bad) == {"error"} and "line 1" in bad["error"]
    good = ANALYZER.parse(
        "svc/app.py", "from flask import Flask\napp = Flask(__name__)\n@app.get('/x')\ndef x():\n    pass\n"
    )
    facts = ANALYZER.link(CTX, {"svc/bad.py": bad, "svc/app.py": good})
    assert [(g.file, g.kind) for g in facts.gaps] == [("svc/bad.py", "parse_error")]
    assert apis(facts) == [("GET", "/x", "x", "svc/app.py", 3)]


def test_nul_bytes_deep_nesting_and_odd_text():
    assert "error" in ANALYZER.parse("svc/nul.py", "x = 1\x00\n")
    deep = ANALYZER.parse("svc/deep.py", "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    assert isinstance(deep, dict)
    long_concat = ANALYZER.parse("svc/cat.py", "X = " + " + ".join(["'a'"] * 3000) + "\n")
    json.dumps(long_concat)
    weird = ANALYZER.parse("svc/w.py", "# \ufffd\ufffd\nS = '\\d'\n")
    assert "error" not in weird


def test_cycles_in_names_classes_and_calls_terminate():
    src = {
        "svc/a.py": "from b import B\nA = B\nclass K(L):\n    pass\nclass L(K):\n    pass\ndef f():\n    return f()\n",
        "svc/b.py": "from a import A\nB = A\nimport requests\nrequests.get(A + '/x')\nK2 = K2\n",
    }
    facts = link_sources(src)
    assert len(facts.calls) == 1 and facts.gaps == ()


def test_large_file_is_parsed_and_output_is_deterministic():
    body = "from fastapi import APIRouter\nrouter = APIRouter()\n" + "".join(
        f"@router.get('/r{i}')\ndef h{i}():\n    return {i}\n" for i in range(3000)
    )
    parsed = {"svc/big.py": ANALYZER.parse("svc/big.py", body)}
    first = ANALYZER.link(CTX, parsed)
    assert len(first.apis) == 3000
    assert ANALYZER.link(CTX, json.loads(json.dumps(parsed))) == first


def test_fixture_links_are_stable_across_runs():
    assert link_tree("django_svc") == link_tree("django_svc")
    assert link_tree("workers_svc") == link_tree("workers_svc")
