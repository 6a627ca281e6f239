"""Commands that only read open the database without writing (issue 13 #14): a database on a
read-only filesystem can be read, and a --db that does not exist creates no folder and no file."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from .conftest import ORBITKB, Cli


def test_list_with_a_missing_database_creates_nothing(cli: Cli, tmp_path: Path) -> None:
    db = tmp_path / "nonexistent" / "dir" / "x.db"
    for command in (["list"], ["status"], ["describe", "x"], ["relationships", "x"], ["export", "json", "--out",
                                                                                       str(tmp_path / "o")]):
        proc = subprocess.run([ORBITKB, *command, "--db", str(db)], capture_output=True, text=True, env=cli.env)
        assert proc.returncode in (0, 4), (command, proc.stderr)  # "nothing indexed yet"
        assert not (tmp_path / "nonexistent").exists(), command


def test_a_database_on_a_read_only_filesystem_can_be_read(cli: Cli, tmp_path: Path) -> None:
    repo = tmp_path / "repo" / "api"
    repo.mkdir(parents=True)
    (repo / "main.py").write_text("from fastapi import FastAPI\napp = FastAPI()\n\n@app.get('/x')\ndef x():\n    pass\n")
    (repo / "requirements.txt").write_text("fastapi\n")
    folder = tmp_path / "kb"
    folder.mkdir()
    db = folder / "kb.db"
    subprocess.run([ORBITKB, "index", str(repo.parent), "--db", str(db)], check=True, capture_output=True, env=cli.env)
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind -o ro {folder} {folder} && ! touch {folder}/t"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a read-only folder here (needs unshare and mount)")
    commands = [["list", "--json"], ["status"], ["describe", "api"], ["export", "json", "--out", str(tmp_path / "o")]]
    script = f"mount --bind -o ro {folder} {folder} && " + " && ".join(
        shlex.join([ORBITKB, *c, "--db", str(db)]) for c in commands)
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, env=cli.env)
    assert proc.returncode == 0, proc.stderr
    assert '"name": "api"' in proc.stdout and (tmp_path / "o" / "knowledge.json").is_file()
