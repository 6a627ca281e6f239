"""Shared helpers for the .NET analyzer tests: parse a dict of C# sources and link them as one service."""

from __future__ import annotations

import json
import textwrap

from orbitkb.analysis.dotnet import ANALYZER
from orbitkb.analysis.facts import Expr, LinkedFacts, ServiceContext


def link(files: dict[str, str], root: str = "svc") -> LinkedFacts:
    parsed = {}
    for path, text in files.items():
        data = ANALYZER.parse(path, textwrap.dedent(text).lstrip("\n"))
        parsed[path] = json.loads(json.dumps(data))  # what the cache stores
    ctx = ServiceContext(name=root, root_dir=root, stack="dotnet", repository="repo")
    return ANALYZER.link(ctx, parsed)


def routes(facts: LinkedFacts) -> list[tuple[str, str, str, int]]:
    return sorted((a.method, a.path, a.handler, a.start_line) for a in facts.apis)


def show(e: Expr | None) -> str | None:
    """A compact text form of an Expr: literals as is, {env:X|default}, {prop:k|default}, {?hint}."""
    if e is None:
        return None
    out = []
    for p in e.parts:
        kind = type(p).__name__
        if kind == "Lit":
            out.append(p.text)  # type: ignore[union-attr]
        elif kind == "Env":
            out.append("{env:" + p.name + ("|" + p.default if p.default is not None else "") + "}")  # type: ignore[union-attr]
        elif kind == "Prop":
            out.append("{prop:" + p.key + ("|" + p.default if p.default is not None else "") + "}")  # type: ignore[union-attr]
        else:
            out.append("{?" + p.hint + "}")  # type: ignore[union-attr]
    return "".join(out)
