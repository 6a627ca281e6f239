"""Helpers for the Python analyzer tests: parse a fixture folder (or inline sources) and link it."""

from __future__ import annotations

import json
from pathlib import Path

from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, ServiceContext
from orbitkb.analysis.python import ANALYZER

FIXTURES = Path(__file__).parent / "fixtures"


def parse_tree(name: str) -> dict[str, dict]:
    root = FIXTURES / name
    out = {}
    for p in sorted(root.rglob("*.py")):
        rel = p.relative_to(FIXTURES).as_posix()
        # parse output is cached as JSON by the pipeline: make sure it survives the round trip
        out[rel] = json.loads(json.dumps(ANALYZER.parse(rel, p.read_text(encoding="utf-8"))))
    return out


def link_tree(name: str) -> LinkedFacts:
    return ANALYZER.link(ServiceContext(name, name, "python", "fixtures"), parse_tree(name))


def link_sources(sources: dict[str, str], root: str = "svc") -> LinkedFacts:
    parsed = {path: ANALYZER.parse(path, text) for path, text in sources.items()}
    return ANALYZER.link(ServiceContext(root, root, "python", "inline"), parsed)


def apis(facts: LinkedFacts) -> list[tuple]:
    return sorted((a.method, a.path, a.handler, a.file, a.start_line) for a in facts.apis)


def show(expr: Expr | None) -> str | None:
    """A readable form of an Expr: literal text, ``${NAME:default}`` for env reads, ``<hint>`` else."""
    if expr is None:
        return None
    out = []
    for p in expr.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Env):
            out.append("${" + p.name + (":" + p.default if p.default is not None else "") + "}")
        else:
            out.append("<" + getattr(p, "hint", getattr(p, "key", "?")) + ">")
    return "".join(out)


def calls(facts: LinkedFacts) -> list[tuple]:
    return sorted(
        (c.file, c.line, c.kind, c.client, c.method, show(c.url), c.api_handler, c.grpc_service)
        for c in facts.calls
    )


def messages(facts: LinkedFacts) -> list[tuple]:
    return sorted(
        (m.file, m.line, m.direction, m.provider, show(m.channel), m.api_handler) for m in facts.messages
    )
