"""The shared skeleton of a tree-sitter language analyzer, so that a new stack is a local change.

A stack subclasses ``TreeSitterAnalyzer`` and writes only what is its own: its name, version,
suffixes and grammar, the files it never reads (tests, generated code), ``read`` (one parsed file
into a JSON-able outline) and ``link`` (one service's outlines into facts). The guard around
``read`` is shared: a file over the size cap is an error, a skipped or binary file says why, and
a pathological file (too deeply nested, undecodable) costs that file only. The node helpers every
reader uses (``text``, ``line``, ``end_line``, ``walk``) and the link side (``OutlineLinker``,
``outlines``, ``parse_gaps``, ``main_framework``) live here too.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from functools import cache
from typing import Any

import tree_sitter as ts

from orbitkb.analysis.facts import (
    LinkedFacts,
    ParseGap,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
)

#: files larger than this are reported as errors, never parsed
MAX_BYTES = 2_000_000
#: how far into a file a NUL byte marks it as binary
BINARY_PROBE = 4096


def parser(module: str, function: str = "language") -> ts.Parser:
    """One parser per grammar per process: ``parser("tree_sitter_php", "language_php")``."""
    return _parser(module, function)


@cache
def _parser(module: str, function: str) -> ts.Parser:
    grammar = importlib.import_module(module)
    return ts.Parser(ts.Language(getattr(grammar, function)()))


def text(node: Any) -> str:
    """The source text of a node; "" for a missing one (an absent optional child)."""
    if node is None:
        return ""
    raw = node.text
    return raw.decode("utf-8", "replace") if raw else ""


def line(node: Any) -> int:
    return int(node.start_point[0]) + 1


def end_line(node: Any) -> int:
    return int(node.end_point[0]) + 1


def walk(node: Any) -> Iterator[Any]:
    """The node and its named descendants, in source order."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))


def is_binary(source: str) -> bool:
    return "\x00" in source[:BINARY_PROBE]


def parse_gaps(parsed: Mapping[str, Any], exclude: Collection[str] = ()) -> list[ParseGap]:
    """A ``parse_error`` gap per file whose parse failed, by path; ``exclude`` are files read only
    for context (a library's), whose errors are not this service's."""
    return [
        ParseGap(path, "parse_error", str(data["error"]))
        for path, data in sorted(parsed.items())
        if isinstance(data, dict) and "error" in data and path not in exclude
    ]


def outlines(parsed: Mapping[str, Any], key: str) -> dict[str, dict[str, Any]]:
    """The files that were read (their outline carries ``key``), by path: errors and skipped files
    are left out."""
    return {p: d for p, d in sorted(parsed.items()) if isinstance(d, dict) and key in d}


def main_framework(apis: Iterable[RawApi]) -> str | None:
    """The framework most of a service's APIs are declared with (None when none says)."""
    counts = Counter(a.framework for a in apis if a.framework)
    return counts.most_common(1)[0][0] if counts else None


class OutlineLinker:
    """One service's outlines into facts, in the order every stack needs: APIs first, since a call
    or a message made inside a handler is attributed to that handler's API."""

    def facts(self, gaps: Iterable[ParseGap]) -> LinkedFacts:
        apis = self.apis()
        handlers = {a.handler for a in apis}
        return LinkedFacts(
            components=tuple(self.components()),
            apis=tuple(apis),
            calls=tuple(self.calls(handlers)),
            messages=tuple(self.messages(handlers)),
            entities=tuple(self.entities()),
            framework=main_framework(apis),
            gaps=tuple(gaps),
        )

    def components(self) -> list[RawComponent]:
        raise NotImplementedError

    def apis(self) -> list[RawApi]:
        raise NotImplementedError

    def calls(self, handlers: set[str]) -> list[RawCall]:
        raise NotImplementedError

    def messages(self, handlers: set[str]) -> list[RawMessage]:
        raise NotImplementedError

    def entities(self) -> list[RawEntity]:
        raise NotImplementedError


class TreeSitterAnalyzer:
    """A ``LanguageAnalyzer`` over one tree-sitter grammar; subclasses fill in the class attributes,
    ``read`` and ``link`` (and ``skips``/``failed`` when their rules differ from the defaults)."""

    stack: str
    version: str
    suffixes: tuple[str, ...]
    #: (module, function) of the tree-sitter grammar, e.g. ("tree_sitter_ruby", "language")
    grammar: tuple[str, str]
    max_bytes: int = MAX_BYTES
    #: file-name endings never read (tests, generated code)
    skipped_endings: tuple[str, ...] = ()
    #: the reason a skipped (or binary) file gives
    skip_reason: str = "binary file"
    #: what a pathological file may raise: it costs that file (an error), never the run
    failures: tuple[type[Exception], ...] = (RecursionError, ValueError, UnicodeError)

    def parse(self, path: str, text: str) -> dict[str, Any]:
        if len(text) > self.max_bytes:
            return {"error": f"file larger than {self.max_bytes} bytes"}
        if self.skips(path) or is_binary(text):
            return {"skipped": self.skip_reason}
        try:
            return self.read(path, text)
        except self.failures as exc:
            return self.failed(exc)

    def skips(self, path: str) -> bool:
        """Whether a file is never read (a test, a generated file), by its path."""
        return path.endswith(self.skipped_endings)

    def root(self, source: str) -> Any:
        """The syntax tree of a file's text (undecodable bytes replaced)."""
        return parser(*self.grammar).parse(source.encode("utf-8", "replace")).root_node

    def read(self, path: str, text: str) -> dict[str, Any]:
        """One file's JSON-able outline (cached by content: nothing may depend on ``path`` alone)."""
        raise NotImplementedError

    def failed(self, exc: Exception) -> dict[str, Any]:
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        raise NotImplementedError
