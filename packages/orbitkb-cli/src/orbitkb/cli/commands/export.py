"""`orbitkb export FORMAT --out DIR`: the knowledge model as files, from the database only."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from orbitkb.cli.commands._common import add_command
from orbitkb.cli.context import app_from
from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.serialization import to_data

FORMATS = ["json", "md", "mermaid", "backstage"]


def register(sub: Any) -> None:
    p = add_command(sub, "export", "write the knowledge model as JSON, Markdown, Mermaid or a Backstage catalog",
                    "orbitkb export json --out docs/kb", run)
    p.add_argument("format", choices=FORMATS)
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--repository", help="only this repository")


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InvalidInput(f"--out is a file, not a folder: {out}")
    app = app_from(args)
    snapshot = app.use_cases.export_snapshot()(args.repository)
    out.mkdir(parents=True, exist_ok=True)
    if args.format == "json":
        target = out / "knowledge.json"
        target.write_text(json.dumps(to_data(snapshot), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {target} ({len(snapshot.services)} services)")
        return 0
    files = app.use_cases.renderers()[args.format](snapshot)
    for rel, text in sorted(files.items()):
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {out}")
    return 0
