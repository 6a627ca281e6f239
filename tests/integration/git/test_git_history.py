"""GitReader.history on a real repository (``git init`` in a temp folder) and on the fake, which
must answer alike: newest first, merges left out, nothing after ``until``, file names relative to
the indexed folder, bounded by ``limit``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.fakes import FakeGitReader
from orbitkb.git import SubprocessGitReader
from orbitkb.git.reader import parse_log


def git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env, text=True).stdout.strip()


STEPS = [  # (message, files written)
    ("Basket: voucher basics", {"shop/basket/a.py": "1"}),
    ("BSK-7 voucher stacking\n\nTwo vouchers may combine.", {"shop/basket/a.py": "2", "shop/ledger/b.go": "1"}),
    ("docs only", {"README.md": "hi"}),
    ("Ledger reconciliation", {"shop/ledger/b.go": "2"}),
]


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, list[str]]:
    git(tmp_path, "init", "-q", "-b", "main")
    shas = []
    for message, files in STEPS:
        for name, text in files.items():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / name).write_text(text)
        git(tmp_path, "add", "-A")
        git(tmp_path, "commit", "-qm", message)
        shas.append(git(tmp_path, "rev-parse", "HEAD"))
    return tmp_path, shas


def fake(shas: list[str]) -> FakeGitReader:
    commits: dict[str, dict[str, str | bytes]] = {}
    tree: dict[str, str | bytes] = {}
    for sha, (_, files) in zip(shas, STEPS, strict=True):
        tree = {**tree, **files}
        commits[sha] = tree
    return FakeGitReader(commits, messages={sha: m for sha, (m, _) in zip(shas, STEPS, strict=True)}, path="/repo")


def summary(records: list) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return [(r.commit, r.subject, r.body, r.files) for r in records]


def test_history_newest_first_up_to_the_commit_asked(repo: tuple[Path, list[str]]) -> None:
    path, shas = repo
    real = SubprocessGitReader().history(str(path), shas[1], 100)
    assert summary(real) == [
        (shas[1], "BSK-7 voucher stacking", "Two vouchers may combine.", ("shop/basket/a.py", "shop/ledger/b.go")),
        (shas[0], "Basket: voucher basics", "", ("shop/basket/a.py",)),
    ]
    assert summary(fake(shas).history("/repo", shas[1], 100)) == summary(real)


def test_history_is_bounded_and_relative_to_a_subfolder(repo: tuple[Path, list[str]]) -> None:
    path, shas = repo
    reader = SubprocessGitReader()
    assert [r.commit for r in reader.history(str(path), "HEAD", 2)] == [shas[3], shas[2]]
    assert reader.history(str(path), "HEAD", 0) == []
    inside = reader.history(str(path / "shop"), "HEAD", 100)
    assert [r.files for r in inside] == [("ledger/b.go",), ("basket/a.py", "ledger/b.go"), ("basket/a.py",)]
    # the limit counts commits that touched the folder: "docs only" does not use up one of the two
    assert [r.commit for r in reader.history(str(path / "shop"), "HEAD", 2)] == [shas[3], shas[1]]


def test_merges_are_left_out(repo: tuple[Path, list[str]]) -> None:
    path, shas = repo
    git(path, "checkout", "-q", "-b", "side", shas[0])
    (path / "shop" / "basket" / "c.py").write_text("x")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "side work")
    git(path, "checkout", "-q", "main")
    git(path, "merge", "-q", "--no-ff", "-m", "Merge branch side", "side")
    subjects = [r.subject for r in SubprocessGitReader().history(str(path), "HEAD", 100)]
    assert "side work" in subjects and not any(s.startswith("Merge") for s in subjects)


def test_a_bad_revision_is_refused_before_git_sees_it(repo: tuple[Path, list[str]]) -> None:
    path, _ = repo
    with pytest.raises(InvalidInput):
        SubprocessGitReader().history(str(path), "--output=/tmp/x", 10)


def test_the_log_parser_skips_commits_without_files() -> None:
    text = "\x1eaaa\nsubject one\n\x1d\n\x1ebbb\nsubject two\nbody\n\x1d\n\nx/y.py\n"
    assert summary(parse_log(text)) == [("bbb", "subject two", "body", ("x/y.py",))]
