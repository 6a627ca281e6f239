"""Argument helpers shared by sub-commands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from orbitkb.bootstrap.settings import BACKENDS  # a table only: the container is not imported

Handler = Callable[[argparse.Namespace], int]


def add_command(sub: Any, name: str, help_text: str, example: str, handler: Handler,
                description: str | None = None) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=description or help_text,
        epilog=f"example:\n  {example}", formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--db", metavar="PATH|URL",
                   help="SQLite file or postgresql:// URL (default: $ORBITKB_DB or ~/.orbitkb/orbitkb.db)")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show tracebacks on errors")
    p.set_defaults(handler=handler)
    return p


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")


def add_backend(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", choices=BACKENDS,
                   help="LLM backend (default: $ORBITKB_BACKEND or auto: claude, then codex, then offline)")
    p.add_argument("--model", help="model name passed to the LLM CLI")
    p.add_argument("--claude-bare", action="store_true",
                   help="bill ANTHROPIC_API_KEY instead of the Claude Code subscription")
    p.add_argument("--codex-api-key", action="store_true",
                   help="bill CODEX_API_KEY instead of the ChatGPT subscription")
    p.add_argument("--llm-timeout", type=positive_seconds, metavar="SECONDS",
                   help="seconds one LLM call may take before it counts as failed "
                   "(default: $ORBITKB_LLM_TIMEOUT or 300)")
    add_embedder(p)


def add_embedder(p: argparse.ArgumentParser) -> None:
    p.add_argument("--embedder", metavar="auto|off|MODEL",
                   help="local embeddings for hybrid search (default: $ORBITKB_EMBEDDER or auto: the packaged "
                   "offline model when installed; or a fastembed model name when online)")


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {value}")
    return value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 86_400:
        raise argparse.ArgumentTypeError(f"must be between 0 and 86400 seconds: {text}")
    return value
