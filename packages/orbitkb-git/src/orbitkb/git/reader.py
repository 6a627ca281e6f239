"""GitReader over the git command line. Revisions are validated before they reach git, so user
input can never become an option (the reference system's ``--output=`` injection)."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence

from orbitkb.domain.errors import GitError, InvalidInput
from orbitkb.domain.ports.sources import CommitRecord
from orbitkb.git.commit_tree import GitCommitSource
from orbitkb.git.hardening import git_argv
from orbitkb.git.heads import GitDirs, HeadCache

_SAFE_REV = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/@{}~^-]{0,199}$")


def validate_rev(rev: str) -> str:
    if not isinstance(rev, str) or not _SAFE_REV.match(rev) or ".." in rev:
        raise InvalidInput(f"not a valid git revision: {rev!r}", hint="pass a commit hash, tag or branch")
    return rev


class SubprocessGitReader:
    def __init__(self, git: str = "git", timeout: float = 60.0) -> None:
        self._git = git
        self._timeout = timeout
        self._heads = HeadCache(self._locate_head)

    def _run(self, cwd: str, args: Sequence[str], check: bool = True) -> subprocess.CompletedProcess[bytes]:
        if not os.path.isdir(cwd):
            cwd = os.path.dirname(cwd) or "."
        argv, env = git_argv(self._git, cwd, args)  # the repository's config runs nothing
        try:
            proc = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=self._timeout, env=env)
        except FileNotFoundError as exc:
            raise GitError("git is not installed", hint="install git to use commits and freshness") from exc
        except subprocess.TimeoutExpired as exc:
            raise GitError(f"git {args[0]} timed out") from exc
        if check and proc.returncode != 0:
            msg = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            raise GitError(f"git {args[0]} failed: {msg[-1] if msg else proc.returncode}")
        return proc

    def is_repository(self, path: str) -> bool:
        try:
            return self._run(path, ["rev-parse", "--is-inside-work-tree"], check=False).returncode == 0
        except GitError:
            return False

    def head_commit(self, path: str) -> str | None:
        """Asked again only when HEAD, its ref or packed-refs changed on disk (see heads.py)."""
        return self._heads.head(path)

    def _locate_head(self, path: str) -> tuple[GitDirs | None, str | None]:
        """One call: the git directory, the common directory and HEAD's commit (absent when unborn)."""
        args = ["rev-parse", "--absolute-git-dir", "--git-common-dir", "--verify", "-q", "HEAD^{commit}"]
        try:
            proc = self._run(path, args, check=False)
        except GitError:
            return None, None
        lines = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
        if len(lines) < 2 or proc.returncode not in (0, 1):
            return None, None
        cwd = path if os.path.isdir(path) else os.path.dirname(path) or "."
        dirs = GitDirs(lines[0], os.path.normpath(os.path.join(os.path.abspath(cwd), lines[1])))
        commit = lines[2].strip() if proc.returncode == 0 and len(lines) == 3 else None
        return dirs, commit or None

    def resolve_commit(self, path: str, rev: str) -> str:
        validate_rev(rev)
        proc = self._run(path, ["rev-parse", "--verify", "-q", "--end-of-options", f"{rev}^{{commit}}"], check=False)
        out = proc.stdout.decode().strip()
        if proc.returncode != 0 or not out:
            raise InvalidInput(f"no such commit: {rev}", hint="check the hash with `git log --oneline`")
        return out

    def changed_files(self, path: str, since: str, until: str | None = None) -> list[str]:
        base = self.resolve_commit(path, since)
        args = ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", base]
        if until is not None:
            args.append(self.resolve_commit(path, until))
        proc = self._run(path, [*args, "--"])
        files = {f for f in proc.stdout.decode("utf-8", "replace").split("\0") if f}
        if until is None:  # untracked new files count as changes in the working tree
            extra = self._run(path, ["ls-files", "-z", "--others", "--exclude-standard"], check=False)
            files.update(f for f in extra.stdout.decode("utf-8", "replace").split("\0") if f)
        prefix = self._prefix(path)
        return sorted(f[len(prefix):] if prefix and f.startswith(prefix) else f for f in files
                      if not prefix or f.startswith(prefix))

    def tree_at(self, path: str, commit: str) -> GitCommitSource:
        full = self.resolve_commit(path, commit)
        return GitCommitSource(self, path, full, self._prefix(path))

    def history(self, path: str, until: str, limit: int) -> list[CommitRecord]:
        """``git log`` from ``until`` back, merges left out, file names relative to ``path``.
        The pathspec ``.`` (``path`` is the working directory) leaves out commits that touched
        nothing under it *before* ``--max-count`` counts, so ``limit`` counts commits that did;
        ``--full-history`` keeps those that a merge made redundant."""
        if limit <= 0:
            return []
        end = self.resolve_commit(path, until)
        args = ["-c", "core.quotePath=false", "log", f"--max-count={int(limit)}", "--no-merges", "--name-only",
                "--no-renames", "--relative", "--full-history", f"--format={_RECORD}%H%n%s%n%b{_FILES}", end,
                "--", "."]
        proc = self._run(path, args)
        return parse_log(proc.stdout.decode("utf-8", "replace"))

    def _prefix(self, path: str) -> str:
        proc = self._run(path, ["rev-parse", "--show-prefix"], check=False)
        return proc.stdout.decode().strip()


_RECORD, _FILES = "\x1e", "\x1d"  # separators no commit message or file name holds


def parse_log(text: str) -> list[CommitRecord]:
    """Commits from the output of ``git log --name-only --format=<RS>%H%n%s%n%b<GS>``."""
    out = []
    for chunk in text.split(_RECORD):
        head, sep, files = chunk.partition(_FILES)
        if not sep:
            continue
        commit, _, message = head.partition("\n")
        subject, _, body = message.partition("\n")
        names = tuple(f for f in files.splitlines() if f.strip())
        if commit.strip() and names:
            out.append(CommitRecord(commit.strip(), subject.strip(), body.strip(), names))
    return out
