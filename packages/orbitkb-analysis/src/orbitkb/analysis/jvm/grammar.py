"""tree-sitter parsers for Java and Kotlin, created once per process, and small node helpers."""

from __future__ import annotations

from functools import cache
from typing import Any

import tree_sitter as ts


@cache
def parser(lang: str) -> ts.Parser:
    if lang == "kotlin":
        import tree_sitter_kotlin as grammar
    else:
        import tree_sitter_java as grammar  # type: ignore[no-redef]
    return ts.Parser(ts.Language(grammar.language()))


def text(node: Any) -> str:
    raw = node.text
    return raw.decode("utf-8", "replace") if raw else ""


def line(node: Any) -> int:
    return int(node.start_point[0]) + 1


def end_line(node: Any) -> int:
    return int(node.end_point[0]) + 1


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
