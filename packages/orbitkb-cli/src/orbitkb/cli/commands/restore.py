"""`orbitkb restore FILE`: bring back a backup, keeping a copy of the database it replaces."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import app_from, print_json


def register(sub: Any) -> None:
    p = add_command(
        sub, "restore", "replace the database with a backup written by `orbitkb backup`",
        "orbitkb restore ~/backups/orbitkb-2026-01-31.db", run,
        description="Replace the database with FILE, a backup written by `orbitkb backup`. FILE is checked "
        "first: anything that is not an undamaged orbitkb database, or was written by a newer orbitkb, is "
        "refused and nothing changes. The database it replaces is copied to <db>.before-restore-<time> "
        "first (a postgresql:// database to <database>.before-restore-<time>.db beside FILE, then replaced "
        "in one transaction); an older schema is upgraded in place. A running `orbitkb serve` sees the "
        "restored knowledge at its next call.",
    )
    p.add_argument("file", help="a backup file written by `orbitkb backup`")
    add_json(p)


def run(args: argparse.Namespace) -> int:
    app = app_from(args)
    report = app.adapters.backups().restore(args.file)
    app.adapters.store().close()  # opening it upgrades an older schema in place
    if args.json:
        print_json(report)
        return 0
    print(f"restored {args.file} into {report.path}: schema version {report.schema_version}, "
          f"{len(report.repositories)} repositories ({', '.join(report.repositories) or 'none'})")
    if report.previous_copy:
        print(f"  the database it replaced is kept at {report.previous_copy}")
    return 0
