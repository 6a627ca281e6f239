"""Test helpers for one language analyzer: parse sources as the pipeline does (through the cache's
JSON round trip), link them as one service, and show values and routes compactly."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping
from typing import Any

from orbitkb.analysis.facts import Env, Expr, LanguageAnalyzer, LinkedFacts, Lit, Prop, ServiceContext


def parse_all(analyzer: LanguageAnalyzer, files: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Each source dedented, parsed, and round-tripped through JSON as the cache stores it."""
    return {
        path: json.loads(json.dumps(analyzer.parse(path, textwrap.dedent(text).lstrip("\n"))))
        for path, text in files.items()
    }


def link_service(analyzer: LanguageAnalyzer, files: Mapping[str, str], root: str = "svc") -> LinkedFacts:
    """The facts of ``files`` linked as one service rooted at ``root``."""
    ctx = ServiceContext(name=root, root_dir=root, stack=analyzer.stack, repository="repo")
    return analyzer.link(ctx, parse_all(analyzer, files))


def linker(analyzer: LanguageAnalyzer) -> Callable[..., LinkedFacts]:
    """``link(files, root="svc")`` bound to one analyzer, for a stack's test helpers."""

    def link(files: Mapping[str, str], root: str = "svc") -> LinkedFacts:
        return link_service(analyzer, files, root)

    return link


def show(e: Expr | None, hints: bool = True) -> str | None:
    """Literals as is, ``{env:X|default}``, ``{prop:k|default}``, and ``{?hint}`` (``{?}`` without
    ``hints``) for what could not be folded."""
    if e is None:
        return None
    out = []
    for p in e.parts:
        if isinstance(p, Lit):
            out.append(p.text)
        elif isinstance(p, Env | Prop):
            name = p.name if isinstance(p, Env) else p.key
            tag = "env" if isinstance(p, Env) else "prop"
            out.append("{" + tag + ":" + name + ("|" + p.default if p.default is not None else "") + "}")
        else:
            out.append("{?" + (p.hint if hints else "") + "}")
    return "".join(out)


def routes(facts: LinkedFacts, lines: bool = True) -> list[tuple[Any, ...]]:
    """(method, path, handler, line) of every API, sorted; without the line when ``lines`` is off."""
    found = sorted((a.method, a.path, a.handler, a.start_line) for a in facts.apis)
    return found if lines else [row[:3] for row in found]
