"""The shared analyzer test helpers read values and routes the way every stack's tests expect."""

from __future__ import annotations

from orbitkb.analysis.facts import Env, Expr, Lit, Prop, Unknown
from orbitkb.analysis.ruby import ANALYZER
from tests.support.analysis import link_service, parse_all, routes, show


def test_show_writes_each_kind_of_part() -> None:
    expr = Expr((Lit("http://"), Env("HOST", "till:80"), Lit("/"), Env("V"), Prop("a.b", "x"), Unknown("id")))
    assert show(expr) == "http://{env:HOST|till:80}/{env:V}{prop:a.b|x}{?id}"
    assert show(expr, hints=False) == "http://{env:HOST|till:80}/{env:V}{prop:a.b|x}{?}"
    assert show(None) is None


def test_sources_are_dedented_and_round_tripped_like_the_cache() -> None:
    source = """
        require 'sinatra'

        post '/tills' do
          'ok'
        end
    """
    parsed = parse_all(ANALYZER, {"app.rb": source})
    assert "error" not in parsed["app.rb"]
    facts = link_service(ANALYZER, {"app.rb": source})
    assert [(m, p, line) for m, p, _, line in routes(facts)] == [("POST", "/tills", 3)]
    assert [row[:2] for row in routes(facts, lines=False)] == [("POST", "/tills")]
    assert all(len(row) == 3 for row in routes(facts, lines=False))
