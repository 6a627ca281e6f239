"""A run registers only the command it runs: ``orbitkb.cli.commands.COMMANDS`` names the module of
every sub-command, and help, errors and the man page still see the whole command line."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from orbitkb.cli import commands
from orbitkb.cli.main import _needed, build_parser


def _names(parser: argparse.ArgumentParser) -> list[str]:
    action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    return list(action.choices) if action else []


def test_the_table_names_every_command_the_modules_register_in_help_order() -> None:
    assert _names(build_parser()) == list(commands.COMMANDS)
    for command, module in commands.COMMANDS.items():
        registered = [c for c, m in commands.COMMANDS.items() if m == module]
        assert _names(build_parser((command,))) == registered  # a module registers its commands, no other


@pytest.mark.parametrize(("argv", "needed"), [
    (["list"], ("list",)), (["list", "--json", "--db", "kb.db"], ("list",)), (["--debug", "describe", "orders"], ("describe",)),
    (["smells", "--kind", "cycle"], ("smells",)), (["--version"], ()), (["--version", "list"], ("list",)),
    ([], None), (["--help"], None), (["-h", "--version"], None), (["lst"], None), (["--debug"], None),
])
def test_a_run_needs_the_command_it_names_and_all_of_them_when_it_names_none(argv: list[str],
                                                                              needed: tuple[str, ...] | None) -> None:
    assert _needed(argv) == needed


def test_a_misspelt_command_is_refused_with_every_choice_listed() -> None:
    done = subprocess.run([sys.executable, "-m", "orbitkb.cli.main", "lst"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "invalid choice: 'lst'" in done.stderr
    assert all(repr(c) in done.stderr for c in commands.COMMANDS)


def test_a_run_of_list_loads_no_other_commands_module() -> None:
    code = ("import sys\nfrom orbitkb.cli.main import main\n"
            "try:\n    main(['list', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('orbitkb.cli.commands.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "['_common', 'listing']", done.stderr
