"""SourceTree over one commit, read straight from git objects (no checkout)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from orbitkb.domain.errors import GitError
from orbitkb.domain.ports import SourceEntry
from orbitkb.git.hardening import git_argv


class GitRunner(Protocol):
    """What a commit tree needs from the git reader that made it."""

    _git: str

    def _run(self, cwd: str, args: Sequence[str], check: bool = True) -> subprocess.CompletedProcess[bytes]: ...


class GitCommitSource:
    def __init__(self, reader: GitRunner, path: str, commit: str, prefix: str = "") -> None:
        self._reader = reader
        self._path = path
        self._commit = commit
        self._prefix = prefix  # the folder inside the git repository that this tree represents
        self._batch: subprocess.Popen[bytes] | None = None

    @property
    def root(self) -> str:
        return f"{self._path}@{self._commit[:12]}"

    @property
    def commit(self) -> str | None:
        return self._commit

    def list_files(self, prune: Callable[[str], bool] | None = None) -> Iterator[SourceEntry]:
        spec = f"{self._commit}:{self._prefix}" if self._prefix else self._commit
        proc = self._reader._run(self._path, ["ls-tree", "-r", "-z", "--long", "--full-tree", spec])
        entries = []
        for record in proc.stdout.split(b"\0"):
            if not record:
                continue
            meta, _, name = record.partition(b"\t")
            mode, kind, _sha, size = meta.split()
            path = name.decode("utf-8", "replace")
            if kind != b"blob":
                continue  # submodules are other repositories
            parts = path.split("/")
            if prune and any(prune("/".join(parts[: i + 1])) for i in range(len(parts) - 1)):
                continue
            if mode == b"120000":
                entries.append(SourceEntry(path, 0, "symlink_outside"))  # never followed from git objects
                continue
            if not size.isdigit():
                # a blob this clone does not hold (a partial or shallow clone: `ls-tree` prints its
                # size as "BAD"): reported as a gap, the rest of the tree is indexed
                entries.append(SourceEntry(path, 0, "missing_object"))
                continue
            entries.append(SourceEntry(path, int(size)))
        entries.sort(key=lambda e: e.path)
        return iter(entries)

    def read_bytes(self, path: str) -> bytes:
        # One long-lived `git cat-file --batch` process: a subprocess per file would cost
        # seconds on a large repository.
        if "\n" in path:
            raise GitError(f"cannot read a path containing a newline: {path!r}")
        if self._batch is None or self._batch.poll() is not None:
            argv, env = git_argv(self._reader._git, self._path, ["cat-file", "--batch"])
            self._batch = subprocess.Popen(
                argv,
                cwd=self._path,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        assert self._batch.stdin is not None and self._batch.stdout is not None
        self._batch.stdin.write(f"{self._commit}:{self._prefix}{path}\n".encode())
        self._batch.stdin.flush()
        header = self._batch.stdout.readline().split()
        if len(header) == 2 and header[1] == b"missing":
            raise FileNotFoundError(f"{path} does not exist at {self._commit[:12]}")
        if len(header) == 3 and header[1] == b"tree":
            self._batch.stdout.read(int(header[2]) + 1)  # the listing git sent, and its newline
            raise IsADirectoryError(f"{path} is a folder at {self._commit[:12]}")  # as a working tree says
        if len(header) < 3 or header[1] != b"blob":
            raise GitError(f"cannot read {path} at {self._commit[:12]}")
        data = self._batch.stdout.read(int(header[2]))
        self._batch.stdout.read(1)  # the trailing newline
        return data

    def close(self) -> None:
        if self._batch is not None:
            if self._batch.stdin:
                self._batch.stdin.close()
            self._batch.wait(timeout=5)
            self._batch = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
