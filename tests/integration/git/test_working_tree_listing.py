"""WorkingTreeSource listing on a real folder: sizes and mtimes for the stat cache, symlinks inside
and outside, broken links, special files, pruning at any depth, sorted output."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from orbitkb.git import SubprocessGitReader, WorkingTreeSource


def test_entries_carry_size_and_mtime_ns(tmp_path: Path) -> None:
    (tmp_path / "svc" / "deep").mkdir(parents=True)
    app = tmp_path / "svc" / "app.py"
    app.write_bytes(b"print('v1')\n")
    os.utime(app, ns=(1_600_000_000_123_456_789, 1_600_000_000_123_456_789))
    (tmp_path / "svc" / "deep" / "x.go").write_text("package x\n")
    entries = list(WorkingTreeSource(tmp_path).list_files())
    assert [e.path for e in entries] == ["svc/app.py", "svc/deep/x.go"]
    by_path = {e.path: e for e in entries}
    assert by_path["svc/app.py"].size == 12
    assert by_path["svc/app.py"].mtime_ns == 1_600_000_000_123_456_789
    assert by_path["svc/deep/x.go"].mtime_ns == os.stat(tmp_path / "svc" / "deep" / "x.go").st_mtime_ns


def test_links_inside_outside_broken_and_to_folders(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("x")
    root = tmp_path / "repo"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "real.py").write_text("12345")
    (root / "pkg" / "alias.py").symlink_to(root / "pkg" / "real.py")  # inside: listed, size of target
    (root / "pkg_link").symlink_to(root / "pkg")  # a folder inside: never descended
    (root / "dangling.py").symlink_to(root / "missing.py")  # broken, inside: skipped
    (root / "gone.py").symlink_to(tmp_path / "missing.py")  # broken, outside: reported
    (root / "secret.py").symlink_to(outside / "secret.py")
    entries = {e.path: (e.kind, e.size) for e in WorkingTreeSource(root).list_files()}
    assert entries == {
        "pkg/real.py": ("file", 5),
        "pkg/alias.py": ("file", 5),
        "gone.py": ("symlink_outside", 0),
        "secret.py": ("symlink_outside", 0),
    }


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_special_files_are_not_listed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("1")
    os.mkfifo(tmp_path / "pipe.py")  # reading it would block the index forever
    assert [e.path for e in WorkingTreeSource(tmp_path).list_files()] == ["a.py"]


def test_prune_sees_relative_folder_paths_at_every_depth(tmp_path: Path) -> None:
    for rel in ("a/b/node_modules/x.js", "a/keep.js", "node_modules/y.js", "c/build/z.js", "c/buildx/w.js"):
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("1")
    seen: list[str] = []

    def prune(folder: str) -> bool:
        seen.append(folder)
        return folder.rsplit("/", 1)[-1] in ("node_modules", "build")

    paths = [e.path for e in WorkingTreeSource(tmp_path).list_files(prune)]
    assert paths == ["a/keep.js", "c/buildx/w.js"]
    assert sorted(seen) == ["a", "a/b", "a/b/node_modules", "c", "c/build", "c/buildx", "node_modules"]


def test_a_commit_tree_has_no_mtimes(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=tmp_path, check=True, capture_output=True, env=env, text=True
        ).stdout.strip()

    git("init", "-q", "-b", "main")
    (tmp_path / "app.py").write_text("print(1)\n")
    git("add", "-A")
    git("commit", "-qm", "one")
    reader = SubprocessGitReader()
    tree = reader.tree_at(str(tmp_path), reader.head_commit(str(tmp_path)) or "")
    assert [(e.path, e.mtime_ns) for e in tree.list_files()] == [("app.py", None)]


def test_a_folder_that_cannot_be_listed_is_listed_as_unreadable(tmp_path: Path, monkeypatch) -> None:
    # root reads every folder whatever its mode, so the failure is injected at os.scandir
    (tmp_path / "svc").mkdir()
    (tmp_path / "svc" / "app.py").write_text("x = 1\n")
    (tmp_path / "locked" / "inner").mkdir(parents=True)
    (tmp_path / "locked" / "inner" / "a.py").write_text("x = 1\n")
    real = os.scandir

    def scandir(path: str):  # type: ignore[no-untyped-def]
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr("orbitkb.git.working_tree.os.scandir", scandir)
    entries = [(e.path, e.kind) for e in WorkingTreeSource(tmp_path).list_files()]
    assert entries == [("locked", "unreadable"), ("svc/app.py", "file")]
