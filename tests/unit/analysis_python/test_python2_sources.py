"""A service still written in Python 2 (``print x``, ``except E, e:``): its routes and calls are
read all the same, on their own lines; a file broken for another reason stays a parse error."""

from __future__ import annotations

import textwrap

from orbitkb.analysis.python import ANALYZER
from orbitkb.analysis.python.legacy import as_python3
from tests.unit.analysis_python.pyana_support import apis, link_sources, show

LEGACY = textwrap.dedent(
    """
    import os
    import requests
    from flask import Flask, request, jsonify

    app = Flask(__name__)
    SCORER = os.environ.get("SCORER_ADDR", "scorer:5000")

    @app.route("/grade", methods=["POST"])
    def grade():
        body = request.json
        print "grading", body["id"]
        try:
            score = requests.post("http://%s/score" % SCORER, json=body).json()
        except ValueError, err:
            print >>sys.stderr, err
            raise RuntimeError, "scorer said nonsense"
        print
        return jsonify(score)
    """
)


def test_routes_and_calls_of_a_python2_file_are_read_on_their_own_lines() -> None:
    facts = link_sources({"svc/app.py": LEGACY})
    assert [(m, p, line) for m, p, _h, _f, line in apis(facts)] == [("POST", "/grade", 9)]
    assert [(c.method, show(c.url), c.line) for c in facts.calls] == [
        ("POST", "http://${SCORER_ADDR:scorer:5000}/score", 14)
    ]


def test_each_python2_statement_is_rewritten_in_place() -> None:
    text = 'print "a", x\nprint\nprint >>f, y,\nexcept (A, B), e:\nraise E, "m"\nprint("ok")\nprinter = 1'
    assert (
        as_python3(text)
        == 'print("a", x)\nprint()\nprint(y)\nexcept (A, B) as e:\nraise E("m")\nprint("ok")\nprinter = 1'
    )
    assert as_python3('print("fine")\nx = 1') is None


def test_a_file_broken_for_another_reason_stays_a_parse_error() -> None:
    assert "error" in ANALYZER.parse("svc/bad.py", 'print "x"\ndef broken(:\n    pass\n')
