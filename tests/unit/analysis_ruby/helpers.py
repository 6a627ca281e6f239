"""Shared helpers for the Ruby analyzer tests: parse a dict of sources and link them as one service."""

from __future__ import annotations

import json
import textwrap

from orbitkb.analysis.facts import Env, Expr, LinkedFacts, Lit, ServiceContext
from orbitkb.analysis.ruby import ANALYZER


def show(e: Expr | None) -> str | None:
    """Literals as is, ``{env:X|default}``, ``{?hint}`` for what could not be folded."""
    if e is None:
        return None
    out = []
    for p in e.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Env):
            out.append("{env:" + p.name + ("|" + p.default if p.default is not None else "") + "}")
        else:
            out.append("{?}")
    return "".join(out)


def link(files: dict[str, str], root: str = "svc") -> LinkedFacts:
    parsed = {}
    for path, text in files.items():
        data = ANALYZER.parse(path, textwrap.dedent(text).lstrip("\n"))
        parsed[path] = json.loads(json.dumps(data))  # what the cache stores
    ctx = ServiceContext(name=root, root_dir=root, stack="ruby", repository="repo")
    return ANALYZER.link(ctx, parsed)


def routes(facts: LinkedFacts) -> list[tuple[str, str, str]]:
    return sorted((a.method, a.path, a.handler) for a in facts.apis)
