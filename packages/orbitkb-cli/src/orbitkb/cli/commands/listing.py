"""`orbitkb list`: one line per service."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import print_json, use_case


def register(sub: Any) -> None:
    p = add_command(sub, "list", "list indexed services, one line each", "orbitkb list --repository shopfront",
                    run)
    p.add_argument("--repository", help="only this repository")
    p.set_defaults(read_only=True)  # opens the database without writing (a read-only disk works)
    add_json(p)


def run(args: argparse.Namespace) -> int:
    items = use_case(args, "list_services")(args.repository)
    if args.json:
        print_json({"services": items})
        return 0
    width = max((len(i.name) for i in items), default=10)
    for i in items:
        kind = "/".join(x for x in (i.stack, i.framework) if x)
        print(f"{i.name:<{width}}  {kind:<22} {i.api_count:>4} APIs  {i.short_desc or ''}"[:200])
    print(f"{len(items)} services")
    return 0
