"""Repository content never drives the terminal (issue 13 #11): a compose key carrying
``ESC ]0;...`` (retitle the window), a C1 CSI and a bidi override are printed as visible escapes by
`index`, `list`, `describe` and error lines, while `--json` still parses to the original names."""

from __future__ import annotations

import re
from pathlib import Path

from .conftest import Cli

EVIL = "evil\x1b]0;pwned\x07\x9b31m\u202e"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_control_characters_from_a_repository_are_shown_not_obeyed(cli: Cli, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "api").mkdir(parents=True)
    name = EVIL.encode("unicode_escape").decode().replace("\\x", "\\u00")
    (repo / "docker-compose.yml").write_text(f'services:\n  "{name}":\n    build: ./api\n')
    (repo / "api" / "main.py").write_text("from fastapi import FastAPI\napp = FastAPI()\n\n"
                                          "@app.get('/x\\x1b[2J')\ndef x():\n    pass\n")
    (repo / "api" / "requirements.txt").write_text("fastapi\n")
    outputs = [cli.run("index", str(repo)), cli.run("list"), cli.run("describe", EVIL), cli.run("status"),
               cli.run("describe", EVIL + "x", check=False), cli.run("list", "--json")]
    for proc in outputs:
        assert not RAW.search(proc.stdout + proc.stderr), (proc.args, proc.stdout, proc.stderr)
    assert "evil\\u001b]0;pwned\\u0007\\u009b31m\\u202e" in outputs[1].stdout
    assert outputs[4].returncode == 3 and "\\u001b" in outputs[4].stderr
    assert [s["name"] for s in cli.json("list")["services"]] == [EVIL]
