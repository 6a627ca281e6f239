"""`orbitkb copy SRC DST`: move a knowledge base between stores (SQLite <-> PostgreSQL)."""

from __future__ import annotations

import argparse
from typing import Any

from orbitkb.cli.commands._common import add_command, add_json
from orbitkb.cli.context import print_json


def register(sub: Any) -> None:
    p = add_command(
        sub, "copy", "copy a whole knowledge base into another store (SQLite <-> PostgreSQL)",
        "orbitkb copy ~/.orbitkb/orbitkb.db postgresql://indexer@db.internal/orbitkb", run,
        description="Copy every fact, search document, run, feedback entry, verification, cache and embedding "
        "from SRC into DST, each an SQLite file or a postgresql:// URL. DST must be empty (a new file or "
        "database); it is written in one transaction and the copy is verified by counting every table on "
        "both sides. Credentials in a URL are never printed.",
    )
    p.add_argument("source", metavar="SRC", help="the knowledge base to read (file or postgresql:// URL)")
    p.add_argument("target", metavar="DST", help="the empty knowledge base to fill (file or postgresql:// URL)")
    add_json(p)


def run(args: argparse.Namespace) -> int:
    from orbitkb.bootstrap.copying import copy_knowledge

    report = copy_knowledge(args.source, args.target)
    if args.json:
        print_json({"source": report.source, "target": report.target, "counts": report.counts})
        return 0
    shown = ", ".join(f"{n} {c}" for n, c in sorted(report.counts.items()) if c)
    print(f"copied {report.total} rows from {report.source} to {report.target} (counts verified): {shown or 'empty'}")
    return 0
