"""One registry per kind: a stack is a row of ``orbitkb.domain.stacks`` and an LLM backend a row of
the adapter's table; every list shown to users (``index --stack``, ``--backend``, the man page) and
every table of the analysis adapter is derived from them."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest
from argparse_manpage.manpage import Manpage

from orbitkb.analysis import filetypes
from orbitkb.analysis.layout import candidates, manifests
from orbitkb.bootstrap import settings
from orbitkb.cli.main import build_parser
from orbitkb.domain import stacks
from orbitkb.domain.stacks import StackRow, code_stacks, manifest_stacks
from orbitkb.llm_cli import ClaudeCliBackend, CodexCliBackend, backends, detect


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def _choices(parser: argparse.ArgumentParser, flag: str) -> list[str]:
    return list(next(a for a in parser._actions if flag in a.option_strings).choices or ())


def test_the_tables_derive_suffixes_and_manifests_from_the_rows_first_claim_wins() -> None:
    rows = (StackRow("alpha", (".al", ".shared"), ("alpha.toml", ".alproj")),
            StackRow("beta", (".be", ".shared"), ("alpha.toml", "beta.json")))
    assert code_stacks(rows) == {".al": "alpha", ".shared": "alpha", ".be": "beta"}
    assert manifest_stacks(rows) == {"alpha.toml": "alpha", ".alproj": "alpha", "beta.json": "beta"}
    assert code_stacks(()) == {} and manifest_stacks(()) == {}


def test_the_analysis_tables_are_the_domain_rows() -> None:
    assert filetypes.CODE_STACKS == code_stacks()
    assert candidates.KNOWN_STACKS == frozenset(stacks.STACK_NAMES)
    assert {k: v for k, v in manifests.MANIFEST_STACKS.items() if v in stacks.STACK_NAMES} == manifest_stacks()
    assert manifests.MANIFEST_STACKS["Dockerfile"] is None  # says nothing about the language
    assert manifests.MANIFEST_STACKS["mix.exs"] == "elixir"  # a language nobody analyses: not a row


@pytest.mark.parametrize(("name", "stack"), [
    ("Orders.Api.csproj", "dotnet"), ("Cargo.toml", "rust"), ("go.mod", "go"), ("requirements-dev.txt", "python"),
    ("Dockerfile.dev", None), ("README.md", None),
])
def test_a_manifest_declares_the_stack_of_its_row(name: str, stack: str | None) -> None:
    manifest, _ = manifests.read_manifest(f"svc/{name}", "")
    assert (manifest.stack if manifests.manifest_kind(name) else None) == stack


def test_every_analysed_stack_has_a_row() -> None:
    from orbitkb.analysis.registry import load_analyzers

    loaded, problems = load_analyzers()
    assert not problems
    assert {a.analyzer.stack for a in loaded} == set(stacks.STACK_NAMES)


def test_a_new_row_shows_in_index_stack_in_its_help_and_in_the_man_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stacks, "STACK_NAMES", (*stacks.STACK_NAMES, "elixir"))
    parser = build_parser()
    index = _sub(parser, "index")
    assert _choices(index, "--stack")[-1] == "elixir"
    assert "rust,elixir}" in index.format_help()
    assert "rust,elixir}" in str(Manpage(parser))
    assert index.parse_args(["repo", "--service", "s", "--stack", "elixir"]).stack == "elixir"


def test_without_the_row_the_stack_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        _sub(build_parser(), "index").parse_args(["repo", "--service", "s", "--stack", "elixir"])
    assert exit_.value.code == 2 and "invalid choice: 'elixir'" in capsys.readouterr().err


def test_the_backends_are_the_adapters_table_plus_auto_and_offline() -> None:
    assert backends.CHOICES == ("auto", *backends.BACKENDS, "offline") == ("auto", "claude", "codex", "offline")
    assert detect.AUTO_ORDER == tuple(backends.BACKENDS)
    assert settings.BACKENDS is backends.CHOICES  # one table, read without loading the backends
    assert [ClaudeCliBackend().name, CodexCliBackend().name] == list(backends.BACKENDS)


def test_reading_the_backend_table_loads_no_backend() -> None:
    code = ("import sys\nfrom orbitkb.bootstrap.settings import BACKENDS\n"
            "loaded = [m for m in ('subprocess', 'orbitkb.llm_cli.detect', 'orbitkb.llm_cli.claude') if m in sys.modules]\n"
            "print(list(BACKENDS), loaded)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "['auto', 'claude', 'codex', 'offline'] []", done.stderr


def test_every_backend_flag_lists_the_settings_choices() -> None:
    from orbitkb.mcp.server import parse_args

    parser = build_parser()
    for command in ("index", "update", "analyze"):
        assert _choices(_sub(parser, command), "--backend") == list(settings.BACKENDS)
    assert parse_args(["--backend", "offline"]).backend == "offline"
    with pytest.raises(SystemExit):
        parse_args(["--backend", "gpt"])
