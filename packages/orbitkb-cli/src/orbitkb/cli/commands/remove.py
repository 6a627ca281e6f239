"""`orbitkb remove REPO`: forget one repository's knowledge (its run history stays)."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import app_from, print_json


def register(sub: Any) -> None:
    p = add_command(
        sub, "remove", "forget an indexed repository: its services, facts, gaps and search entries",
        "orbitkb remove shopfront", run,
        description="Forget an indexed repository: its services and everything they own, resources, gaps, "
        "indexed files and search entries, in one transaction. Run history and feedback stay; calls from "
        "other repositories to its services become unresolved. `orbitkb update` and the MCP refresh tool "
        "never bring it back; `orbitkb index PATH` does. Take an `orbitkb backup FILE` first to keep a copy.",
    )
    p.add_argument("repository", help="the repository name (as `orbitkb status` shows it)")
    add_json(p)


def run(args: argparse.Namespace) -> int:
    result = app_from(args).use_cases.remove_repository()(args.repository)
    if args.json:
        print_json(result)
        return 0
    print(f"removed {result.repository} ({result.root_path}): {len(result.services)} services, "
          f"{result.files} indexed files")
    if result.calls_unresolved:
        print(f"  {result.calls_unresolved} calls from other repositories to its services are now unresolved")
    return 0
