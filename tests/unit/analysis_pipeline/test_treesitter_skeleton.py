"""The shared skeleton of the tree-sitter analyzers: a new stack writes only its reader and linker,
and every stack gets the same guard (size cap, skipped and binary files, a bad file costs itself)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from orbitkb.analysis import dotnet, golang, php, ruby, rust, treesitter
from orbitkb.analysis.facts import (
    Expr,
    LinkedFacts,
    Lit,
    ParseGap,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
)
from orbitkb.analysis.treesitter import (
    OutlineLinker,
    TreeSitterAnalyzer,
    main_framework,
    outlines,
    parse_gaps,
)


class TinyRuby(TreeSitterAnalyzer):
    """A whole stack in a dozen lines: what it reads is the names of the methods it defines."""

    stack = "tiny"
    version = "tiny-1"
    suffixes = (".rb",)
    grammar = ("tree_sitter_ruby", "language")
    max_bytes = 200
    skipped_endings = ("_spec.rb",)
    skip_reason = "a spec or binary file"

    def read(self, path: str, text: str) -> dict[str, Any]:
        if "raise!" in text:
            raise RecursionError("nested past the limit")
        if "boom!" in text:
            raise KeyError("a reader bug")
        return {
            "defs": [
                [treesitter.text(n.child_by_field_name("name")), treesitter.line(n), treesitter.end_line(n)]
                for n in treesitter.walk(self.root(text))
                if n.type == "method"
            ]
        }

    def link(self, ctx: ServiceContext, parsed: Mapping[str, dict[str, Any]]) -> LinkedFacts:
        return TinyLinker(outlines(parsed, "defs")).facts(parse_gaps(parsed))


class TinyLinker(OutlineLinker):
    """Each method is a GET route; a method named ``call_*`` calls out, inside its own handler."""

    def __init__(self, files: Mapping[str, dict[str, Any]]) -> None:
        self.defs = [
            (path, name, start, end) for path, data in files.items() for name, start, end in data["defs"]
        ]

    def components(self) -> list[RawComponent]:
        return [RawComponent(path, path, "module", 1, 1) for path in sorted({d[0] for d in self.defs})]

    def apis(self) -> list[RawApi]:
        return [
            RawApi("GET", "/" + name, name, path, start, end, framework="tiny")
            for path, name, start, end in self.defs
        ]

    def calls(self, handlers: set[str]) -> list[RawCall]:
        return [
            RawCall(
                "http",
                path,
                start,
                end,
                "tiny",
                Expr((Lit("http://x"),)),
                "GET",
                api_handler=name if name in handlers else None,
            )
            for path, name, start, end in self.defs
            if name.startswith("call_")
        ]

    def messages(self, handlers: set[str]) -> list[RawMessage]:
        return []

    def entities(self) -> list[RawEntity]:
        return []


def test_a_new_stack_reads_with_its_grammar() -> None:
    source = "class Till\n  def open\n  end\n\n  def close\n  end\nend\n"
    assert TinyRuby().parse("till.rb", source) == {"defs": [["open", 2, 3], ["close", 5, 6]]}


def test_the_linker_skeleton_gives_apis_first_and_attributes_calls_to_their_handler() -> None:
    tiny = TinyRuby()
    parsed = {
        "b.rb": tiny.parse("b.rb", "def call_ledger\nend\n"),
        "a.rb": tiny.parse("a.rb", "def ping\nend\n"),
        "broken.rb": {"error": "unreadable"},
        "skip_spec.rb": tiny.parse("skip_spec.rb", "def t; end"),
    }
    facts = tiny.link(ServiceContext("svc", ".", "tiny", "repo"), parsed)
    assert [a.path for a in facts.apis] == ["/ping", "/call_ledger"]  # files in path order
    assert [(c.file, c.api_handler) for c in facts.calls] == [("b.rb", "call_ledger")]
    assert [c.name for c in facts.components] == ["a.rb", "b.rb"]
    assert facts.framework == "tiny"
    assert facts.gaps == (ParseGap("broken.rb", "parse_error", "unreadable"),)
    assert outlines(parsed, "defs") == {
        "a.rb": {"defs": [["ping", 1, 2]]},
        "b.rb": {"defs": [["call_ledger", 1, 2]]},
    }


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("big.rb", "x = 1\n" * 50, {"error": "file larger than 200 bytes"}),
        ("till_spec.rb", "def t; end", {"skipped": "a spec or binary file"}),
        ("blob.rb", "def a\x00b", {"skipped": "a spec or binary file"}),
        ("deep.rb", "raise!", {"error": "RecursionError: nested past the limit"}),
    ],
)
def test_the_guard_answers_before_the_reader(path: str, text: str, expected: dict[str, str]) -> None:
    assert TinyRuby().parse(path, text) == expected


def test_a_failure_outside_the_declared_kinds_is_left_to_the_pipeline() -> None:
    # the pipeline turns it into an uncached gap, so a fixed reader reads the file again
    with pytest.raises(KeyError):
        TinyRuby().parse("bug.rb", "boom!")


def test_the_binary_probe_looks_at_the_head_of_a_file_only() -> None:
    assert treesitter.is_binary("ab\x00")
    assert not treesitter.is_binary("a" * treesitter.BINARY_PROBE + "\x00")


def test_parse_gaps_are_sorted_and_leave_out_context_files_and_good_parses() -> None:
    parsed = {
        "z.rb": {"error": "late"},
        "lib/shared.rb": {"error": "not ours"},
        "a.rb": {"error": "early"},
        "ok.rb": {"defs": []},
        "odd.rb": ["not", "a", "dict"],
    }
    assert parse_gaps(parsed, exclude={"lib/shared.rb"}) == [
        ParseGap("a.rb", "parse_error", "early"),
        ParseGap("z.rb", "parse_error", "late"),
    ]
    assert parse_gaps({}) == []


def test_main_framework_is_the_most_common_declared_one() -> None:
    def api(framework: str | None) -> RawApi:
        return RawApi("GET", "/x", "h", "f.rb", 1, 1, framework=framework)

    assert main_framework([api("sinatra"), api("grape"), api("grape"), api(None)]) == "grape"
    assert main_framework([api(None)]) is None
    assert main_framework([]) is None


def test_node_helpers_tolerate_a_missing_child_and_walk_in_source_order() -> None:
    assert treesitter.text(None) == ""
    root = TinyRuby().root("a = 1\nb = 2\n")
    assignments = [treesitter.text(n) for n in treesitter.walk(root) if n.type == "assignment"]
    assert assignments == ["a = 1", "b = 2"]


def test_one_parser_per_grammar_per_process() -> None:
    assert treesitter.parser("tree_sitter_ruby") is treesitter.parser("tree_sitter_ruby", "language")
    assert treesitter.parser("tree_sitter_ruby") is not treesitter.parser("tree_sitter_rust")


def test_an_unknown_grammar_is_a_clear_import_error() -> None:
    with pytest.raises(ModuleNotFoundError, match="tree_sitter_cobol"):
        treesitter.parser("tree_sitter_cobol")


STACKS = [dotnet.ANALYZER, golang.ANALYZER, php.ANALYZER, ruby.ANALYZER, rust.ANALYZER]


@pytest.mark.parametrize("analyzer", STACKS, ids=lambda a: a.stack)
def test_every_tree_sitter_stack_shares_the_guard(analyzer: TreeSitterAnalyzer) -> None:
    assert isinstance(analyzer, TreeSitterAnalyzer)
    path = "src/main" + analyzer.suffixes[0]
    assert analyzer.parse(path, "x" * (treesitter.MAX_BYTES + 1)) == {
        "error": "file larger than 2000000 bytes"
    }
    assert "skipped" in analyzer.parse(path, "\x00\x01binary")
    assert analyzer.root("").type  # its grammar loads


def test_dotnet_reports_a_reader_bug_as_an_error_of_that_file() -> None:
    assert dotnet.ANALYZER.failed(RecursionError()) == {"error": "source nested too deeply to analyze"}
    assert dotnet.ANALYZER.failed(KeyError("k")) == {"error": "analyzer failure: KeyError: 'k'"}
