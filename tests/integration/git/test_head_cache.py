"""HEAD is asked of git once per change on disk, and a moved HEAD is always seen (real git repos)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from orbitkb.git import SubprocessGitReader
from tests.integration.git.test_git_adapter import git


class CountingGitReader(SubprocessGitReader):
    """The real reader, counting the git commands it runs."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def _run(self, cwd: str, args: Sequence[str], check: bool = True) -> subprocess.CompletedProcess[bytes]:
        self.calls += 1
        return super()._run(cwd, args, check)


def commit(repo: Path, text: str) -> str:
    (repo / "notes.txt").write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", text)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "svc").mkdir()
    (root / "svc" / "app.py").write_text("print(1)\n")
    commit(root, "first")
    return root


def test_commit_ask_commit_ask_sees_every_move_and_asks_git_only_on_change(repo: Path) -> None:
    reader = CountingGitReader()
    first = git(repo, "rev-parse", "HEAD")
    assert reader.head_commit(str(repo)) == first
    assert reader.head_commit(str(repo)) == first
    runs = reader.calls
    for _ in range(5):
        assert reader.head_commit(str(repo)) == first
    assert reader.calls == runs  # unchanged HEAD: no git process at all
    second = commit(repo, "second")
    assert reader.head_commit(str(repo)) == second
    third = commit(repo, "third")
    assert reader.head_commit(str(repo)) == third
    assert reader.head_commit(str(repo)) == third


@pytest.mark.parametrize("move", ["reset", "checkout_branch", "detach_and_commit", "pack_refs_then_commit",
                                  "amend", "update_ref"])
def test_every_way_of_moving_head_is_seen(repo: Path, move: str) -> None:
    reader = SubprocessGitReader()
    first = git(repo, "rev-parse", "HEAD")
    second = commit(repo, "second")
    for _ in range(3):
        assert reader.head_commit(str(repo)) == second
    if move == "reset":
        git(repo, "reset", "-q", "--hard", first)
        expected = first
    elif move == "checkout_branch":
        git(repo, "checkout", "-q", "-b", "old", first)
        expected = first
    elif move == "detach_and_commit":
        git(repo, "checkout", "-q", "--detach")
        assert reader.head_commit(str(repo)) == second
        expected = commit(repo, "detached")
    elif move == "pack_refs_then_commit":
        git(repo, "pack-refs", "--all")
        assert reader.head_commit(str(repo)) == second
        expected = commit(repo, "after pack")
    elif move == "amend":
        (repo / "notes.txt").write_text("amended")
        git(repo, "commit", "-qa", "--amend", "-m", "amended")
        expected = git(repo, "rev-parse", "HEAD")
    else:
        git(repo, "update-ref", "refs/heads/main", first)
        expected = first
    assert expected != second
    assert reader.head_commit(str(repo)) == expected
    assert reader.head_commit(str(repo / "svc")) == expected  # a folder inside the repository


def test_worktrees_keep_their_own_head(repo: Path, tmp_path: Path) -> None:
    reader = SubprocessGitReader()
    main = git(repo, "rev-parse", "HEAD")
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    for _ in range(2):
        assert reader.head_commit(str(other)) == main
        assert reader.head_commit(str(repo)) == main
    side = commit(other, "on side")
    assert reader.head_commit(str(other)) == side
    assert reader.head_commit(str(repo)) == main
    again = commit(repo, "on main")
    assert reader.head_commit(str(repo)) == again
    assert reader.head_commit(str(other)) == side


def test_a_folder_that_becomes_or_stops_being_a_repository(tmp_path: Path) -> None:
    reader = SubprocessGitReader()
    folder = tmp_path / "later"
    folder.mkdir()
    assert reader.head_commit(str(folder)) is None
    git(folder, "init", "-q", "-b", "main")
    assert reader.head_commit(str(folder)) is None  # unborn HEAD
    assert reader.head_commit(str(folder)) is None
    first = commit(folder, "first")
    assert reader.head_commit(str(folder)) == first
    assert reader.head_commit(str(folder)) == first
    shutil.rmtree(folder / ".git")
    assert reader.head_commit(str(folder)) is None
    shutil.rmtree(folder)
    assert reader.head_commit(str(folder)) is None
