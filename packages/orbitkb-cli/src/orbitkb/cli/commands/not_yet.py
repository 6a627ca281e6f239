"""Sub-commands whose capability has not landed yet: they exit 2 and say so."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.domain.errors import NotAvailableYet

PENDING: dict[str, tuple[str, str]] = {}


def _handler(args: argparse.Namespace) -> int:
    raise NotAvailableYet(f"`orbitkb {args.command}` is not available yet in this version")


def register(sub: Any) -> None:
    for name, (help_text, example) in PENDING.items():
        p = add_command(sub, name, help_text + " (not available yet)", example, _handler)
        add_json(p)
        p.add_argument("args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
