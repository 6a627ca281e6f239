"""Helpers for the JVM analyzer tests: parse a fixture folder and link it as one service."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, Prop, ServiceContext, Unknown
from orbitkb.analysis.jvm import ANALYZER

FIXTURES = Path(__file__).parent / "fixtures"


def parse_tree(root: Path) -> dict[str, dict]:
    parsed = {}
    for path in sorted(root.rglob("*")):
        if path.suffix in ANALYZER.suffixes:
            rel = path.relative_to(root).as_posix()
            # parse output is cached as JSON: make sure it survives the trip
            parsed[rel] = json.loads(json.dumps(ANALYZER.parse(rel, path.read_text())))
    return parsed


def link_dir(root: Path) -> LinkedFacts:
    return ANALYZER.link(ServiceContext("svc", ".", "jvm-spring", "repo"), parse_tree(root))


@pytest.fixture(scope="module")
def linked() -> Callable[[str], LinkedFacts]:
    cache: dict[str, LinkedFacts] = {}

    def get(name: str) -> LinkedFacts:
        if name not in cache:
            cache[name] = link_dir(FIXTURES / name)
        return cache[name]

    return get


@pytest.fixture
def show() -> Callable[[Expr | None], str | None]:
    return render_expr


@pytest.fixture
def parsed_dir() -> Callable[[str], dict[str, dict]]:
    return lambda name: parse_tree(FIXTURES / name)


def render_expr(expr: Expr | None) -> str | None:
    """A compact, exact rendering of an Expr for expected lists: lit text, ${prop:def}, $ENV, <unknown>."""
    if expr is None:
        return None
    out = []
    for p in expr.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Prop):
            out.append("${" + p.key + ("" if p.default is None else ":" + p.default) + "}")
        elif isinstance(p, Env):
            out.append("$" + p.name + ("" if p.default is None else "|" + p.default))
        elif isinstance(p, Unknown):
            out.append("<" + p.hint + ">")
    return "".join(out)
