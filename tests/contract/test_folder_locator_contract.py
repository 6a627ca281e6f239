"""The FolderLocator contract: the file-system adapter and the in-memory fake answer alike
(symlinks aside, which only the real file system has)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from orbitkb.domain.errors import PathNotFound
from orbitkb.domain.fakes import FakeFolderLocator
from orbitkb.git import OsFolderLocator


@pytest.fixture(params=["os", "fake"])
def world(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A home folder holding a repository, where the process runs (``~`` and relative paths)."""
    (tmp_path / "repo" / "svc").mkdir(parents=True)
    (tmp_path / "notes.txt").write_text("x")
    root = str(tmp_path)
    if request.param == "os":
        monkeypatch.setenv("HOME", root)
        monkeypatch.chdir(tmp_path / "repo")
        return OsFolderLocator(), root
    folders = {root, f"{root}/repo", f"{root}/repo/svc"}
    return FakeFolderLocator(folders, files={f"{root}/notes.txt"}, home=root, cwd=f"{root}/repo"), root


def test_folder_existence_and_kind(world) -> None:
    folders, root = world
    assert folders.folder(f"{root}/repo/") == f"{root}/repo"
    assert folders.folder(f"{root}/repo/svc/..") == f"{root}/repo"
    with pytest.raises(PathNotFound, match="does not exist"):
        folders.folder(f"{root}/nope")
    with pytest.raises(PathNotFound, match="not a folder"):
        folders.folder(f"{root}/notes.txt")


def test_home_and_relative_paths_become_absolute(world) -> None:
    folders, root = world
    assert folders.folder("~/repo") == f"{root}/repo"
    assert folders.folder("~") == root
    assert folders.folder("svc") == f"{root}/repo/svc"  # relative to where the process runs
    assert folders.folder(".") == f"{root}/repo"
    with pytest.raises(PathNotFound, match="does not exist"):
        folders.folder("~/elsewhere")
    with pytest.raises(PathNotFound, match="not a folder"):
        folders.folder("../notes.txt")


def test_inside_and_same_folder(world) -> None:
    folders, root = world
    assert folders.inside(f"{root}/repo/svc/app.py", f"{root}/repo") == "svc/app.py"
    assert folders.inside(f"{root}/repo", f"{root}/repo") == "."
    assert folders.inside(f"{root}/repository/x.py", f"{root}/repo") is None  # a prefix is not a parent
    assert folders.inside(f"{root}/notes.txt", f"{root}/repo") is None
    assert folders.inside("svc/app.py", f"{root}/repo") is None  # relative: not the locator's question
    assert folders.same_folder(f"{root}/repo", f"{root}/repo/svc/..")
    assert not folders.same_folder(f"{root}/repo", f"{root}/repo/svc")


def test_symlinks_are_resolved_by_the_real_adapter(tmp_path: Path) -> None:
    (tmp_path / "real" / "svc").mkdir(parents=True)
    os.symlink(tmp_path / "real", tmp_path / "link")
    folders = OsFolderLocator()
    assert folders.same_folder(str(tmp_path / "link"), str(tmp_path / "real"))
    assert folders.inside(str(tmp_path / "link" / "svc" / "a.py"), str(tmp_path / "real")) == "svc/a.py"
    assert folders.folder(str(tmp_path / "link")) == str(tmp_path / "link")  # kept as named, not resolved
