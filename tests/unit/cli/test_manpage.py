"""The man page a user reads (issue 13 #14): NAME says what orbitkb is, EXIT STATUS lists every
status the command returns, and the page points at a real place to get orbitkb."""

from __future__ import annotations

import re
from pathlib import Path

from orbitkb.cli.exit import ExitStatus

PAGE = (Path(__file__).resolve().parents[3] / "man" / "orbitkb.1").read_text()


def section(name: str) -> str:
    match = re.search(rf"^\.SH {name}\n(.*?)(?=^\.SH |\Z)", PAGE, re.MULTILINE | re.DOTALL)
    assert match, f"no {name} section"
    return match.group(1)


def test_name_says_what_orbitkb_is() -> None:
    assert re.match(r"orbitkb \\- \w+ .*knowledge model", section("NAME"))


def test_exit_status_lists_every_status() -> None:
    listed = set(re.findall(r"^\.B (\d+)$", section("EXIT STATUS"), re.MULTILINE))
    assert listed == {str(int(s)) for s in ExitStatus}


def test_the_url_is_real() -> None:
    urls = re.findall(r"^\.UR (\S+)$", PAGE, re.MULTILINE)
    assert urls and all(u.startswith("https://") and "invalid" not in u and "example" not in u for u in urls)
