"""The git adapter against a real repository made with `git init` in a temp folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from orbitkb.domain.errors import InvalidInput, PathNotFound
from orbitkb.git import SubprocessGitReader, WorkingTreeSource


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "app.py").write_text("print('v1')\n")
    (tmp_path / "README.md").write_text("hello\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "first")
    return tmp_path


def test_head_and_changed_files(repo: Path) -> None:
    reader = SubprocessGitReader()
    first = reader.head_commit(str(repo))
    assert first and len(first) == 40
    (repo / "svc" / "app.py").write_text("print('v2')\n")
    (repo / "new.txt").write_text("x")
    assert reader.changed_files(str(repo), first) == ["new.txt", "svc/app.py"]
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "second")
    second = reader.head_commit(str(repo))
    assert second != first
    assert reader.changed_files(str(repo), first, second) == ["new.txt", "svc/app.py"]


def test_tree_at_reads_past_content_without_checkout(repo: Path) -> None:
    reader = SubprocessGitReader()
    first = reader.head_commit(str(repo))
    assert first
    (repo / "svc" / "app.py").write_text("print('v2')\n")
    git(repo, "commit", "-qam", "second")
    tree = reader.tree_at(str(repo), first[:10])
    assert [e.path for e in tree.list_files()] == ["README.md", "svc/app.py"]
    assert tree.read_bytes("svc/app.py") == b"print('v1')\n"
    assert tree.read_bytes("README.md") == b"hello\n"
    assert (repo / "svc" / "app.py").read_text() == "print('v2')\n"


def test_subfolder_tree_is_relative_to_the_folder(repo: Path) -> None:
    reader = SubprocessGitReader()
    head = reader.head_commit(str(repo))
    assert head
    tree = reader.tree_at(str(repo / "svc"), head)
    assert [e.path for e in tree.list_files()] == ["app.py"]
    assert tree.read_bytes("app.py") == b"print('v1')\n"


@pytest.mark.parametrize("rev", ["--output=/tmp/x", "-p", "a..b", "", "x y", "$(rm)"])
def test_option_shaped_revisions_are_refused(repo: Path, rev: str) -> None:
    with pytest.raises(InvalidInput):
        SubprocessGitReader().resolve_commit(str(repo), rev)


def test_unknown_commit_is_a_clear_error(repo: Path) -> None:
    with pytest.raises(InvalidInput, match="no such commit"):
        SubprocessGitReader().resolve_commit(str(repo), "deadbeef")


def test_outside_git(tmp_path: Path) -> None:
    reader = SubprocessGitReader()
    assert reader.head_commit(str(tmp_path)) is None
    assert not reader.is_repository(str(tmp_path))


def test_working_tree_never_follows_symlinks_out(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("x")
    root = tmp_path / "repo"
    (root / "a").mkdir(parents=True)
    (root / "a" / "ok.py").write_text("1")
    (root / "link").symlink_to(outside)
    (root / "a" / "file_link.py").symlink_to(outside / "secret.py")
    (root / "a" / "inner_link.py").symlink_to(root / "a" / "ok.py")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "x.js").write_text("1")
    tree = WorkingTreeSource(root)
    entries = {e.path: e.kind for e in tree.list_files(prune=lambda d: d.endswith("node_modules"))}
    assert entries == {"a/ok.py": "file", "a/file_link.py": "symlink_outside", "a/inner_link.py": "file",
                       "link": "symlink_outside"}
    with pytest.raises(PermissionError):
        tree.read_bytes("a/file_link.py")


def test_working_tree_bad_paths(tmp_path: Path) -> None:
    with pytest.raises(PathNotFound, match="does not exist"):
        WorkingTreeSource(tmp_path / "nope")
    f = tmp_path / "f.txt"
    f.write_text("x")
    with pytest.raises(PathNotFound, match="not a folder"):
        WorkingTreeSource(f)


def test_missing_file_at_commit_is_file_not_found(repo: Path) -> None:
    reader = SubprocessGitReader()
    tree = reader.tree_at(str(repo), reader.head_commit(str(repo)) or "")
    with pytest.raises(FileNotFoundError):
        tree.read_bytes(".orbitkbignore")
    assert tree.read_bytes("README.md") == b"hello\n"  # the batch process survives a miss


def test_a_blob_missing_from_the_clone_is_listed_as_missing_not_a_crash(repo: Path) -> None:
    """Partial clones (and damaged ones) list blobs they do not hold; ls-tree prints 'BAD' sizes."""
    reader = SubprocessGitReader()
    head = reader.head_commit(str(repo))
    assert head
    blob = git(repo, "rev-parse", "HEAD:README.md")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    tree = reader.tree_at(str(repo), head)
    entries = {e.path: e.kind for e in tree.list_files()}
    assert entries == {"README.md": "missing_object", "svc/app.py": "file"}
    assert tree.read_bytes("svc/app.py") == b"print('v1')\n"
