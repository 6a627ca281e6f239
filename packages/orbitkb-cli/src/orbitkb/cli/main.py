"""Entry point of the ``orbitkb`` command: builds the parser, dispatches to one sub-command module,
maps errors to exit statuses. One clear line on error; --debug shows the traceback."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from orbitkb.cli import commands
from orbitkb.cli.exit import ExitStatus
from orbitkb.cli.terminal import SafeStream, safe_text
from orbitkb.domain import errors

DESCRIPTION = """\
orbitkb indexes one or many repositories into a System Knowledge Model — services, APIs, calls
between services, message channels, persisted entities — and serves it to AI coding agents over
MCP and to you on this command line.

The flow:
  1. index    orbitkb index PATH            facts from real parsers (no LLM needed)
  2. ask      orbitkb list / status / analyze "TASK" / serve (MCP for agents)
  3. verify   orbitkb verify RUN --repository R --since COMMIT
"""

EPILOG = """\
examples:
  orbitkb index examples/shopfront          # index the bundled example system
  orbitkb list                              # one line per service
  orbitkb analyze "Add Pix payments to checkout"
  orbitkb serve                             # MCP server on stdio for Claude Code / Codex

The database is ~/.orbitkb/orbitkb.db unless --db PATH or ORBITKB_DB says otherwise.
"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version  # ~20 ms: only for --version

    try:
        return version("orbitkb-cli")
    except PackageNotFoundError:
        return "0+unknown"


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=dest, nargs=0, default=argparse.SUPPRESS,
                         help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        parser.exit(message=f"orbitkb {_version()}\n")


def build_parser(only: tuple[str, ...] | None = None) -> argparse.ArgumentParser:
    """The whole command line; ``only`` registers just those sub-commands (what one run needs)."""
    parser = argparse.ArgumentParser(
        prog="orbitkb", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in commands.modules(only):
        module.register(sub)
    return parser


def _needed(argv: Sequence[str]) -> tuple[str, ...] | None:
    """The sub-commands a run must register: the one it names (the first word that is no option:
    the top-level options take no value), none for a bare ``--version``, else all (help, errors)."""
    words = [a for a in argv if not a.startswith("-")]
    if words:
        return (words[0],) if words[0] in commands.COMMANDS else None
    if "--version" in argv and not {"-h", "--help"} & set(argv):
        return ()
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_needed(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return ExitStatus.USAGE
    # what a repository contains (names, paths, routes) never reaches the terminal as a command
    stdout, sys.stdout = sys.stdout, SafeStream(sys.stdout)
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        print("orbitkb: interrupted", file=sys.stderr)
        return ExitStatus.INTERRUPTED
    except errors.OrbitkbError as exc:
        if getattr(args, "debug", False):
            import traceback  # only when one is shown: `--version` and the parser do without it

            traceback.print_exc()
        hint = f" ({exc.hint})" if getattr(exc, "hint", None) else ""
        print(safe_text(f"orbitkb: error: {exc}{hint}"), file=sys.stderr)
        return _status_of(exc)
    except BrokenPipeError:
        return ExitStatus.OK
    except Exception as exc:  # the promise: one clear line, never a traceback without --debug
        if getattr(args, "debug", False):
            import traceback  # only when one is shown: `--version` and the parser do without it

            traceback.print_exc()
        print(safe_text(f"orbitkb: unexpected error: {type(exc).__name__}: {exc} (rerun with --debug for details)"),
              file=sys.stderr)
        return ExitStatus.ERROR
    finally:
        sys.stdout = stdout


def _status_of(exc: errors.OrbitkbError) -> ExitStatus:
    if isinstance(exc, errors.NotFound):
        return ExitStatus.NOT_FOUND
    if isinstance(exc, errors.EmptyKnowledgeBase):
        return ExitStatus.EMPTY
    if isinstance(exc, errors.RepositoryConflict):
        return ExitStatus.CONFLICT
    if isinstance(exc, (errors.InvalidInput, errors.NotAvailableYet)):
        return ExitStatus.USAGE
    return ExitStatus.ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
