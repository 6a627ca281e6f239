"""`orbitkb backup FILE`: a consistent copy of the whole knowledge base, taken while others use it."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import app_from, print_json


def register(sub: Any) -> None:
    p = add_command(
        sub, "backup", "copy the whole database to FILE (consistent, safe while indexing or serving)",
        "orbitkb backup ~/backups/orbitkb-$(date +%F).db", run,
        description="Copy the whole database to FILE with SQLite's online backup: one consistent snapshot, "
        "including what is still in the write-ahead log, taken while another process indexes or serves. "
        "A postgresql:// database is copied the same way into the same kind of file, read in one snapshot "
        "(a read-only role may take it). "
        "FILE is a single self-contained SQLite file; bring it back with `orbitkb restore FILE`.",
    )
    p.add_argument("file", help="the backup file to write (an existing file is refused without --force)")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    add_json(p)


def run(args: argparse.Namespace) -> int:
    report = app_from(args).adapters.backups().backup(args.file, overwrite=args.force)
    if args.json:
        print_json(report)
        return 0
    print(f"backed up to {report.path}: {report.bytes} bytes, schema version {report.schema_version}, "
          f"{len(report.repositories)} repositories ({', '.join(report.repositories) or 'none'})")
    return 0
