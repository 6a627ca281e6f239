"""The tree-sitter C# parser, created once per process, and small node helpers."""

from __future__ import annotations

from functools import cache
from typing import Any

import tree_sitter as ts


@cache
def parser() -> ts.Parser:
    import tree_sitter_c_sharp as grammar

    return ts.Parser(ts.Language(grammar.language()))


def text(node: Any) -> str:
    raw = node.text
    return raw.decode("utf-8", "replace") if raw else ""


def line(node: Any) -> int:
    return int(node.start_point[0]) + 1


def end_line(node: Any) -> int:
    return int(node.end_point[0]) + 1
