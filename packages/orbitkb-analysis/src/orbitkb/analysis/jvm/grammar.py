"""tree-sitter parsers for Java and Kotlin (shared per process, see ``treesitter``) and small node helpers."""

from __future__ import annotations

from typing import Any

import tree_sitter as ts

from orbitkb.analysis import treesitter

# the node helpers the Java and Kotlin readers import from here
from orbitkb.analysis.treesitter import end_line as end_line
from orbitkb.analysis.treesitter import line as line
from orbitkb.analysis.treesitter import text as text


def parser(lang: str) -> ts.Parser:
    return treesitter.parser("tree_sitter_kotlin" if lang == "kotlin" else "tree_sitter_java")


def doc_text(comment: str) -> str | None:
    """The text of a ``/** ... */`` comment without its delimiters and leading stars, trimmed."""
    if not comment.startswith("/**") or comment == "/**/":
        return None
    body = comment[3:-2] if comment.endswith("*/") else comment[3:]
    lines = []
    for raw in body.splitlines():
        stripped = raw.strip()
        if stripped.startswith("*"):
            stripped = stripped[1:]
            if stripped.startswith(" "):
                stripped = stripped[1:]
        lines.append(stripped.rstrip())
    out = "\n".join(lines).strip()
    return out or None


def count_errors(root: Any, limit: int = 50) -> tuple[int, int]:
    """(error nodes, first error line) — a cheap scan that stops descending into clean subtrees."""
    if not root.has_error:
        return 0, 0
    found = 0
    first = 0
    stack = [root]
    while stack and found < limit:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            found += 1
            ln = line(node)
            first = ln if not first else min(first, ln)
            continue
        stack.extend(c for c in node.children if c.has_error)
    return found, first
