"""Issue 13 #14: `export` into a folder it wrote before drops pages of deleted services, keeps files
it never wrote, and writes nothing through a symlink inside --out; `update` of a folder that became
empty refuses to wipe its repository without --replace."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .conftest import Cli


@pytest.fixture
def two_services(cli: Cli, tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    for name in ("alpha", "beta"):
        (repo / name).mkdir(parents=True)
        (repo / name / "main.py").write_text(f"from fastapi import FastAPI\napp = FastAPI()\n\n"
                                             f"@app.get('/{name}')\ndef x():\n    pass\n")
        (repo / name / "requirements.txt").write_text("fastapi\n")
    cli.run("index", str(repo))
    return repo


def test_export_again_removes_pages_of_deleted_services(cli: Cli, two_services: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    cli.run("export", "md", "--out", str(out))
    assert (out / "services" / "beta.md").is_file()
    (out / "services" / "notes.md").write_text("mine\n")  # a user's own file
    shutil.rmtree(two_services / "beta")
    cli.run("update", "repo")
    assert "removed 1 stale" in cli.run("export", "md", "--out", str(out)).stdout
    assert not (out / "services" / "beta.md").exists()
    assert (out / "services" / "alpha.md").is_file() and (out / "services" / "notes.md").read_text() == "mine\n"


def test_export_never_writes_through_a_symlink(cli: Cli, two_services: Path, tmp_path: Path) -> None:
    out, victim = tmp_path / "out", tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (out / "services").mkdir(parents=True)
    (out / "services" / "alpha.md").symlink_to(victim)
    (out / "knowledge.json").symlink_to(victim)
    cli.run("export", "md", "--out", str(out))
    cli.run("export", "json", "--out", str(out))
    assert victim.read_text() == "precious\n"
    assert not (out / "services" / "alpha.md").is_symlink() and "alpha" in (out / "services" / "alpha.md").read_text()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "services")
    (out / "services").symlink_to(elsewhere, target_is_directory=True)
    proc = cli.run("export", "md", "--out", str(out), check=False)
    assert proc.returncode == 2 and "symlink" in proc.stderr
    assert list(elsewhere.iterdir()) == []


def test_update_of_a_folder_that_became_empty_refuses_without_replace(cli: Cli, two_services: Path) -> None:
    for child in two_services.iterdir():
        shutil.rmtree(child)
    proc = cli.run("update", "repo", check=False)
    assert proc.returncode == 5 and "empty" in proc.stderr and "--replace" in proc.stderr
    assert {s["name"] for s in cli.json("list")["services"]} == {"alpha", "beta"}
    cli.run("update", "repo", "--replace")
    after = cli.run("list", "--json", check=False)
    assert "alpha" not in after.stdout, after.stdout
