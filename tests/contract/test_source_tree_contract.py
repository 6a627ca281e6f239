"""The SourceTree contract: the same files held in memory (the fake), written to a folder (the
working tree), committed to git (a commit read from objects) and committed under a subfolder of a
bigger repository; every test runs against each, so the fake cannot drift from the adapters."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import SourceTree
from orbitkb.git import SubprocessGitReader, WorkingTreeSource

#: Files of every kind a listing must keep apart: nested folders, an empty file, bytes that are
#: not UTF-8, a name that sorts between a folder and its files ("orders.md" vs "orders/").
FILES: Mapping[str, bytes] = {
    "README.md": b"# shop\n",
    "orders.md": b"notes",
    "orders/app.py": b"print('orders')\n",
    "orders/deep/x/model.py": b"class Order: ...\n",
    "orders/empty.txt": b"",
    "payments/pay.go": "package pay // café\n".encode(),
    "payments/blob.bin": b"\x00\xff\xfe binary",
}
FOLDERS = {"orders", "orders/deep", "orders/deep/x", "payments", "empty-folder"}  # the last on disk only


def _git(cwd: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def _write(root: Path, files: Mapping[str, bytes]) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def _memory(tmp_path: Path) -> SourceTree:
    return MemorySourceTree(FILES)


def _working(tmp_path: Path) -> SourceTree:
    _write(tmp_path / "tree", FILES)
    (tmp_path / "tree" / "empty-folder").mkdir()
    return WorkingTreeSource(tmp_path / "tree")


def _commit(tmp_path: Path) -> SourceTree:
    _write(tmp_path / "repo", FILES)
    _git(tmp_path / "repo", "init", "-q", "-b", "main")
    _git(tmp_path / "repo", "add", "-A")
    _git(tmp_path / "repo", "commit", "-qm", "files")
    return SubprocessGitReader().tree_at(str(tmp_path / "repo"), "HEAD")


def _commit_of_a_subfolder(tmp_path: Path) -> SourceTree:
    """A monorepo: the tree of ``shop/`` sees only its own files, named relative to it."""
    _write(tmp_path / "mono" / "shop", FILES)
    _write(tmp_path / "mono", {"outside.txt": b"not in the shop", "other/app.py": b"x"})
    _git(tmp_path / "mono", "init", "-q", "-b", "main")
    _git(tmp_path / "mono", "add", "-A")
    _git(tmp_path / "mono", "commit", "-qm", "files")
    return SubprocessGitReader().tree_at(str(tmp_path / "mono" / "shop"), "HEAD")


TREES: dict[str, Callable[[Path], SourceTree]] = {
    "memory": _memory, "working": _working, "commit": _commit, "commit-subfolder": _commit_of_a_subfolder,
}  # fmt: skip


@pytest.fixture(params=sorted(TREES))
def tree(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SourceTree]:
    made = TREES[request.param](tmp_path)
    yield made
    close = getattr(made, "close", None)
    if close is not None:
        close()  # a commit tree keeps one `git cat-file` process


def test_every_file_is_listed_once_sorted_with_its_size(tree: SourceTree) -> None:
    assert isinstance(tree, SourceTree) and isinstance(tree.root, str)
    entries = list(tree.list_files())
    assert [e.path for e in entries] == sorted(FILES)
    assert all(e.kind == "file" and e.size == len(FILES[e.path]) for e in entries)
    assert all(e.mtime_ns is None or isinstance(e.mtime_ns, int) for e in entries)
    assert [e.path for e in tree.list_files()] == sorted(FILES)  # listing again gives the same


def test_read_bytes_gives_back_each_file_exactly(tree: SourceTree) -> None:
    for name, data in FILES.items():
        assert tree.read_bytes(name) == data


@pytest.mark.parametrize("missing", ["nope.txt", "orders/nope.py", "orders"])
def test_a_path_that_is_not_a_file_of_the_tree_cannot_be_read(tree: SourceTree, missing: str) -> None:
    with pytest.raises(OSError):  # FileNotFoundError, or IsADirectoryError for a folder on disk
        tree.read_bytes(missing)
    assert tree.read_bytes("README.md") == FILES["README.md"]  # and the tree still reads


def test_prune_is_asked_about_folders_only_and_skips_what_it_answers_yes_to(tree: SourceTree) -> None:
    asked: list[str] = []
    listed = [e.path for e in tree.list_files(prune=lambda d: asked.append(d) or False)]
    assert listed == sorted(FILES) and set(asked) <= FOLDERS and {"orders", "payments"} <= set(asked)

    kept = [e.path for e in tree.list_files(prune=lambda d: d == "orders/deep")]
    assert kept == sorted(set(FILES) - {"orders/deep/x/model.py"})
    kept = [e.path for e in tree.list_files(prune=lambda d: d == "orders")]
    assert kept == ["README.md", "orders.md", "payments/blob.bin", "payments/pay.go"]


def test_a_commit_tree_names_its_commit_and_a_folder_names_none_unless_told(tmp_path: Path) -> None:
    assert MemorySourceTree({}).commit is None and MemorySourceTree({}, commit="abc").commit == "abc"
    assert WorkingTreeSource(tmp_path).commit is None and WorkingTreeSource(tmp_path, commit="abc").commit == "abc"
    tree = _commit(tmp_path)
    assert tree.commit is not None and len(tree.commit) == 40
