"""Generate man/orbitkb.1 from the CLI's argparse parser (argparse-manpage); --check fails when the
checked-in page no longer matches the parser."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "man" / "orbitkb.1"
EXIT = ROOT / "packages" / "orbitkb-cli" / "src" / "orbitkb" / "cli" / "exit.py"
DESCRIPTION = "index microservice repositories into a knowledge model for AI coding agents and you"
URL = "https://pypi.org/project/orbitkb-cli/"


def exit_status_section() -> str:
    """EXIT STATUS, read from the ExitStatus enum and its comments, so the page cannot drift."""
    rows = re.findall(r"^\s+[A-Z_]+ = (\d+)\s+#\s*(.+)$", EXIT.read_text(), re.MULTILINE)
    rows = [("0", "success"), *[(code, text) for code, text in rows if code != "0"]]
    body = "".join(f".TP\n.B {code}\n{text.strip().replace('-', chr(92) + '-')}\n" for code, text in rows)
    return f"[EXIT STATUS]\n{body}"


def generate(target: Path) -> None:
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600"}  # reproducible date in the page
    with tempfile.TemporaryDirectory() as tmp:
        extra = Path(tmp) / "extra.man"
        extra.write_text(exit_status_section())
        subprocess.run(
            ["argparse-manpage", "--module", "orbitkb.cli.main", "--function", "build_parser",
             "--prog", "orbitkb", "--project-name", "orbitkb", "--author", "orbitkb developers",
             "--description", DESCRIPTION, "--url", URL, "--manual-title", "orbitkb manual",
             "--include", str(extra), "--output", str(target)],
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
