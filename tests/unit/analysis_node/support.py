"""Helpers: parse fixture files like the pipeline does (JSON round trip), link them, render values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from textwrap import dedent

from orbitkb.analysis.facts import Expr, LinkedFacts, ServiceContext
from orbitkb.analysis.node import ANALYZER


def parse_all(files: Mapping[str, str]) -> dict[str, dict]:
    # The pipeline caches parse() output as JSON: round-trip it so the linker sees what it would.
    return {path: json.loads(json.dumps(ANALYZER.parse(path, dedent(text)))) for path, text in files.items()}


def analyze(files: Mapping[str, str], root: str = ".") -> LinkedFacts:
    return ANALYZER.link(ServiceContext("svc", root, "node-ts", "repo"), parse_all(files))


def url(expr: Expr | None) -> str | None:
    """Render an Expr compactly for exact comparisons: literals as-is, ${ENV:default}, {?hint}."""
    if expr is None:
        return None
    out = []
    for part in expr.parts:
        kind = type(part).__name__
        if kind == "Lit":
            out.append(part.text)  # type: ignore[union-attr]
        elif kind == "Env":
            out.append("${" + part.name + (":" + part.default if part.default is not None else "") + "}")  # type: ignore[union-attr]
        elif kind == "Prop":
            out.append("#{" + part.key + "}")  # type: ignore[union-attr]
        else:
            out.append("{?" + part.hint + "}")  # type: ignore[union-attr]
    return "".join(out)
