"""Generate man/orbitkb.1 from the CLI's argparse parser (argparse-manpage); --check fails when the
checked-in page no longer matches the parser."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "man" / "orbitkb.1"


def generate(target: Path) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}  # reproducible date in the page
    subprocess.run(
        ["argparse-manpage", "--module", "orbitkb.cli.main", "--function", "build_parser",
         "--prog", "orbitkb", "--project-name", "orbitkb", "--author", "orbitkb developers",
         "--url", "https://example.invalid/orbitkb", "--manual-title", "orbitkb manual",
         "--output", str(target)],
        check=True, env=env,
    )


def main() -> int:
    if "--check" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            fresh = Path(tmp) / "orbitkb.1"
            generate(fresh)
            if not PAGE.exists() or PAGE.read_text() != fresh.read_text():
                print("man/orbitkb.1 is out of date: run `uv run python scripts/manpage.py`", file=sys.stderr)
                return 1
        return 0
    PAGE.parent.mkdir(exist_ok=True)
    generate(PAGE)
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
