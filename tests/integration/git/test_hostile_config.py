"""A repository's own git config and attributes run nothing when orbitkb reads it (issue 13 #7)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from orbitkb.git import SubprocessGitReader
from tests.support.hostile_git import fired, plant


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path, str]:
    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    (repo / "svc" / "app.py").write_text("print('v1')\n")
    (repo / "README.md").write_text("hello\n")
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one"], cwd=repo, check=True)
    base = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()
    marks = plant(repo, tmp_path / "marks")
    (repo / "svc" / "app.py").write_text("print('v2')\n")
    return repo, marks, base


def test_the_planted_repository_really_is_hostile(hostile: tuple[Path, Path, str]) -> None:
    repo, marks, base = hostile
    subprocess.run(["git", "diff", base], cwd=repo, capture_output=True)
    assert {"fsmonitor", "process"} <= set(fired(marks))
    subprocess.run(["git", "config", "--unset", "filter.evil.process"], cwd=repo, check=True)
    subprocess.run(["git", "status"], cwd=repo, capture_output=True)
    subprocess.run(["git", "diff", base], cwd=repo, capture_output=True)
    assert {"clean", "clean-odd-name", "diff-command", "hook-post-index-change"} <= set(fired(marks))
    subprocess.run(["git", "config", "--unset", "diff.evil.command"], cwd=repo, check=True)
    subprocess.run(["git", "diff", base], cwd=repo, capture_output=True)
    subprocess.run(["git", "diff", "--no-ext-diff", "--textconv", base], cwd=repo, capture_output=True)
    assert {"diff-external", "textconv"} <= set(fired(marks))


def test_reading_a_hostile_repository_runs_none_of_its_commands(hostile: tuple[Path, Path, str]) -> None:
    repo, marks, base = hostile
    reader = SubprocessGitReader()
    assert reader.is_repository(str(repo))
    head = reader.head_commit(str(repo))
    assert head
    assert reader.changed_files(str(repo), base) == [".gitattributes", "svc/app.py"]
    assert reader.changed_files(str(repo), base, head) == [".gitattributes"]
    tree = reader.tree_at(str(repo), base)
    assert [e.path for e in tree.list_files()] == ["README.md", "svc/app.py"]
    assert tree.read_bytes("svc/app.py") == b"print('v1')\n"
    tree.close()
    assert fired(marks) == []


def test_the_callers_environment_does_not_reach_git(hostile: tuple[Path, Path, str], tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    repo, marks, base = hostile
    system = tmp_path / "system.gitconfig"
    system.write_text(f"[core]\n\tfsmonitor = touch {marks}/system-config; false\n")
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(system))
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", f"touch {marks}/env-external")
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.fsmonitor'='touch {marks}/env-param'")
    assert SubprocessGitReader().changed_files(str(repo), base) == [".gitattributes", "svc/app.py"]
    assert fired(marks) == []
