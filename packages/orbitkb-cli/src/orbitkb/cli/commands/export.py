"""`orbitkb export FORMAT --out DIR`: the knowledge model as files, from the database only.

Exporting again into the same folder removes the pages it wrote last time that no longer exist
(a deleted service), listed in ``.orbitkb-export.json``; files it did not write are left alone.
Nothing is written through a symlink inside the folder: a file is replaced by renaming a temporary
file over it (a symlink there is replaced, its target untouched), and a symlinked sub-folder is
refused.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from orbitkb.cli.commands._common import add_command
from orbitkb.cli.context import app_from
from orbitkb.domain.errors import InvalidInput

FORMATS = ["json", "md", "mermaid", "backstage"]
MANIFEST = ".orbitkb-export.json"


def register(sub: Any) -> None:
    p = add_command(sub, "export", "write the knowledge model as JSON, Markdown, Mermaid or a Backstage catalog",
                    "orbitkb export json --out docs/kb", run)
    p.add_argument("format", choices=FORMATS)
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--repository", help="only this repository")
    p.set_defaults(read_only=True)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise InvalidInput(f"--out is a file, not a folder: {out}")
    app = app_from(args)
    snapshot = app.use_cases.export_snapshot()(args.repository)
    out.mkdir(parents=True, exist_ok=True)
    if args.format == "json":
        from orbitkb.domain.serialization import to_data  # cattrs: only when needed
        files = {"knowledge.json": json.dumps(to_data(snapshot), indent=2, ensure_ascii=False) + "\n"}
    else:
        files = app.use_cases.renderers()[args.format](snapshot)
    for rel, text in sorted(files.items()):
        _write(out, rel, text)
    removed = _forget_stale(out, args.format, set(files))
    gone = f", removed {removed} stale" if removed else ""
    if args.format == "json":
        print(f"wrote {out / 'knowledge.json'} ({len(snapshot.services)} services){gone}")
    else:
        print(f"wrote {len(files)} files to {out}{gone}")
    return 0


def _inside(out: Path, rel: str) -> Path:
    """``out/rel``, with every folder on the way a real folder inside ``out`` (created if missing)."""
    parts = Path(rel).parts
    if not parts or Path(rel).is_absolute() or ".." in parts:
        raise InvalidInput(f"refusing to write outside --out: {rel}")
    folder = out
    for part in parts[:-1]:
        folder = folder / part
        if folder.is_symlink():
            raise InvalidInput(f"{folder} is a symlink: export never writes through one",
                               hint="remove the link or choose another --out")
        folder.mkdir(exist_ok=True)
    return folder / parts[-1]


def _write(out: Path, rel: str, text: str) -> None:
    path = _inside(out, rel)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".orbitkb-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)  # replaces a symlink itself, never the file it points to
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _forget_stale(out: Path, fmt: str, written: set[str]) -> int:
    """Delete what the previous export of ``fmt`` wrote and this one did not; record this one."""
    manifest = out / MANIFEST
    try:
        before = json.loads(manifest.read_text(encoding="utf-8")) if manifest.is_file() and not manifest.is_symlink() else {}
    except (OSError, ValueError):
        before = {}
    before = before if isinstance(before, dict) else {}
    listed = before.get(fmt)
    previous: list[Any] = listed if isinstance(listed, list) else []
    removed = 0
    for rel in sorted({r for r in previous if isinstance(r, str)} - written):
        try:
            path = _inside(out, rel)
        except InvalidInput:
            continue
        if path.is_symlink() or path.is_file():
            path.unlink()
            removed += 1
    _write(out, MANIFEST, json.dumps({**before, fmt: sorted(written)}, indent=2) + "\n")
    return removed
