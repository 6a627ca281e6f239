"""End-to-end helpers: the real `orbitkb` console script of this environment."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shopfront"
ORBITKB = str(Path(sys.executable).parent / "orbitkb")


class Cli:
    def __init__(self, db: Path, cwd: Path) -> None:
        self.db = db
        self.cwd = cwd
        self.env = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline",
                    "PATH": os.environ.get("PATH", "")}

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([ORBITKB, *args, "--db", str(self.db)], capture_output=True, text=True,
                              cwd=self.cwd, env=self.env, timeout=300)
        if check and proc.returncode != 0:
            raise AssertionError(f"orbitkb {' '.join(args)} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
        return proc

    def json(self, *args: str) -> Any:
        return json.loads(self.run(*args, "--json").stdout)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "kb.db", tmp_path)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Cli:
    tmp = tmp_path_factory.mktemp("indexed")
    c = Cli(tmp / "kb.db", tmp)
    c.run("index", str(EXAMPLE), "--repository-name", "shopfront")
    return c


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env).stdout.strip()


@pytest.fixture
def example_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "shopfront"
    shutil.copytree(EXAMPLE, repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "initial")
    return repo
