"""`orbitkb serve`: the MCP server on stdio (needs the orbitkb-mcp distribution)."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_backend, add_command
from orbitkb.domain.errors import OrbitkbError


def register(sub: Any) -> None:
    p = add_command(sub, "serve", "run the MCP server on stdio (for Claude Code, Codex and other MCP clients)",
                    "orbitkb serve --tools core --db ~/.orbitkb/orbitkb.db", run)
    p.add_argument("--tools", choices=["core", "full"], default="full",
                   help="core: the 7 task-shaped tools; full: all 17")
    p.add_argument("--read-only", action="store_true",
                   help="open the database without writing (a shared one): every tool answers, runs and "
                        "feedback are not recorded (automatic when the file cannot be written)")
    add_backend(p)


def run(args: argparse.Namespace) -> int:
    try:
        from orbitkb.mcp.server import serve
    except ImportError as exc:
        raise OrbitkbError("the MCP server is not installed", hint="pip install orbitkb-mcp") from exc
    from orbitkb.cli.context import settings_from

    serve(settings_from(args))
    return 0
