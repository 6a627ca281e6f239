"""The GitReader contract: one history, told to the in-memory fake and made with real `git` in a
temp folder, read back through the port; every test runs against both, so the fake cannot drift
from the adapter it stands in for."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from attrs import frozen

from orbitkb.domain.errors import InvalidInput
from orbitkb.domain.fakes import FakeGitReader
from orbitkb.domain.ports import GitReader
from orbitkb.git import SubprocessGitReader

#: The history both readers hold, oldest first: (label, message, every file of the commit).
#: "tidy" changes nothing (an empty commit): the history leaves it out.
HISTORY: tuple[tuple[str, str, Mapping[str, str]], ...] = (
    ("start", "Add the orders service\n\nIt takes orders and stores them.",
     {"README.md": "orders\n", "orders/app.py": "v1\n"}),
    ("pay", "Charge payments at checkout", {"README.md": "orders\n", "orders/app.py": "v2\n", "payments/pay.py": "p\n"}),
    ("drop", "Drop the readme", {"orders/app.py": "v2\n", "payments/pay.py": "p\n"}),
    ("tidy", "Nothing to see", {"orders/app.py": "v2\n", "payments/pay.py": "p\n"}),
)  # fmt: skip


@frozen
class World:
    """A reader, the path it is asked about, and the commit each label became."""

    reader: GitReader
    path: str
    commits: Mapping[str, str]

    def rev(self, label: str) -> str:
        return self.commits[label]


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env, text=True)
    return done.stdout.strip()


def _real(tmp_path: Path) -> World:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    commits = {}
    for label, message, files in HISTORY:
        for old in [p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts]:
            if old.relative_to(repo).as_posix() not in files:
                old.unlink()
        for name, text in files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text)
        _git(repo, "add", "-A")
        _git(repo, "commit", "-q", "--allow-empty", "-m", message)
        commits[label] = _git(repo, "rev-parse", "HEAD")
    return World(SubprocessGitReader(), str(repo), commits)


def _fake(tmp_path: Path) -> World:
    reader = FakeGitReader({label: files for label, _, files in HISTORY},
                           messages={label: message for label, message, _ in HISTORY})  # fmt: skip
    return World(reader, reader.path, {label: label for label, _, _ in HISTORY})


READERS: dict[str, Callable[[Path], World]] = {"git": _real, "fake": _fake}


@pytest.fixture(params=sorted(READERS))
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    yield READERS[request.param](tmp_path)


def test_head_and_revisions_resolve_to_the_commits(world: World) -> None:
    reader = world.reader
    assert reader.is_repository(world.path)
    assert reader.head_commit(world.path) == world.rev("tidy")
    assert reader.resolve_commit(world.path, "HEAD") == world.rev("tidy")
    assert reader.resolve_commit(world.path, world.rev("start")) == world.rev("start")


@pytest.mark.parametrize("rev", ["nosuchcommit", "--output=/tmp/x"])
def test_an_unknown_or_option_like_revision_is_invalid_input(world: World, rev: str) -> None:
    with pytest.raises(InvalidInput):
        world.reader.resolve_commit(world.path, rev)
    with pytest.raises(InvalidInput):
        world.reader.tree_at(world.path, rev)


def test_changed_files_between_commits_sorted_with_additions_and_deletions(world: World) -> None:
    reader, path, rev = world.reader, world.path, world.rev
    assert reader.changed_files(path, rev("start"), rev("pay")) == ["orders/app.py", "payments/pay.py"]
    assert reader.changed_files(path, rev("pay"), rev("drop")) == ["README.md"]
    assert reader.changed_files(path, rev("drop"), rev("tidy")) == []
    assert reader.changed_files(path, rev("start")) == ["README.md", "orders/app.py", "payments/pay.py"]


def test_tree_at_a_past_commit_lists_and_reads_its_files(world: World) -> None:
    tree = world.reader.tree_at(world.path, world.rev("start"))
    assert tree.commit == world.rev("start")
    entries = list(tree.list_files())
    assert [(e.path, e.size, e.kind) for e in entries] == [("README.md", 7, "file"), ("orders/app.py", 3, "file")]
    assert tree.read_bytes("orders/app.py") == b"v1\n"
    with pytest.raises(FileNotFoundError):
        tree.read_bytes("payments/pay.py")  # only later commits hold it


def test_history_is_newest_first_leaves_out_empty_commits_and_stops_at_until(world: World) -> None:
    reader, path, rev = world.reader, world.path, world.rev
    records = reader.history(path, rev("tidy"), 10)
    assert [r.commit for r in records] == [rev("drop"), rev("pay"), rev("start")]
    assert [sorted(r.files) for r in records] == [
        ["README.md"], ["orders/app.py", "payments/pay.py"], ["README.md", "orders/app.py"]
    ]
    oldest = records[-1]
    assert (oldest.subject, oldest.body) == ("Add the orders service", "It takes orders and stores them.")
    assert records[0].body == ""
    assert [r.commit for r in reader.history(path, rev("pay"), 10)] == [rev("pay"), rev("start")]
    assert [r.commit for r in reader.history(path, rev("tidy"), 1)] == [rev("drop")]
    assert reader.history(path, rev("tidy"), 0) == []


def test_a_place_without_history_has_no_head(tmp_path: Path) -> None:
    empty = tmp_path / "plain"
    empty.mkdir()
    for reader in (SubprocessGitReader(), FakeGitReader()):
        assert not reader.is_repository(str(empty))
        assert reader.head_commit(str(empty)) is None
