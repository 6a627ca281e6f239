"""Reading a clone without a work tree: the commit log with changed paths, and the files of a commit
read blob by blob (blobs missing from a partial clone are skipped, never fatal)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from attrs import frozen

RS, US = "\x1e", "\x1f"
LOG_FORMAT = f"{RS}%H{US}%P{US}%an <%ae>{US}%cI{US}%B{US}"


@frozen
class LogEntry:
    sha: str
    parents: tuple[str, ...]
    author: str
    date: str
    message: str
    files: tuple[str, ...]


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, errors="replace"
    ).stdout


def log(repo: Path, rev: str = "HEAD") -> list[LogEntry]:
    """Every commit reachable from rev, newest first, with the paths it changed against its parent
    (no rename detection: a rename is a delete plus an add, and needs no blob)."""
    out = git(repo, "log", rev, "--no-renames", "--name-only", f"--format={LOG_FORMAT}")
    entries = []
    for chunk in out.split(RS)[1:]:
        fields = chunk.split(US)
        sha, parents, author, date, message, rest = (
            fields[0],
            fields[1],
            fields[2],
            fields[3],
            fields[4],
            fields[5],
        )
        files = tuple(line for line in rest.split("\n") if line.strip())
        entries.append(LogEntry(sha, tuple(parents.split()), author, date, message, files))
    return entries


def changed(repo: Path, commit: str) -> list[str]:
    """The paths one commit changed against its first parent (none for a root commit)."""
    out = git(repo, "show", "--no-renames", "--name-only", "--format=", "--first-parent", commit)
    return [line for line in out.split("\n") if line.strip()]


def tree(repo: Path, commit: str) -> list[tuple[str, str, int]]:
    """(path, blob sha, size) of every file of a commit (size -1 when unknown)."""
    out = git(repo, "ls-tree", "-r", "-l", "-z", commit)
    rows = []
    for rec in out.split("\0"):
        if not rec:
            continue
        meta, path = rec.split("\t", 1)
        mode, typ, sha, size = meta.split()
        if typ == "blob" and not mode.startswith("12"):  # skip symlinks
            rows.append((path, sha, int(size) if size.isdigit() else -1))
    return rows


def read_blobs(repo: Path, shas: list[str]) -> Iterator[tuple[str, bytes]]:
    """(sha, content) for each present blob, through one `git cat-file --batch`."""
    proc = subprocess.Popen(
        ["git", "-C", str(repo), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        for sha in shas:
            proc.stdin.write(sha.encode() + b"\n")
            proc.stdin.flush()
            header = proc.stdout.readline().split()
            if len(header) != 3:  # "<sha> missing"
                continue
            data = proc.stdout.read(int(header[2]))
            proc.stdout.read(1)  # the newline after the content
            yield sha, data
    finally:
        proc.stdin.close()
        proc.wait()


def files_at(repo: Path, commit: str, keep: Callable[[str], bool], max_size: int) -> list[tuple[str, bytes]]:
    """The files of a commit whose path passes keep and whose size is at most max_size."""
    wanted = [(p, sha) for p, sha, size in tree(repo, commit) if keep(p) and 0 <= size <= max_size]
    by_sha: dict[str, list[str]] = {}
    for p, sha in wanted:
        by_sha.setdefault(sha, []).append(p)
    out = []
    for sha, data in read_blobs(repo, list(by_sha)):
        out.extend((p, data) for p in by_sha[sha])
    return sorted(out)
