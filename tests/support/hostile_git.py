"""A git repository whose own config and attributes would run commands: each writes a marker file.

Planted after the last commit (so the test's own git calls do not set them off): core.fsmonitor,
every hook, diff.external, a textconv driver, and clean/smudge/process filters (one of them named
with an ``=``, which ``git -c`` cannot carry). A tracked file is touched without changing, so git
must hash it again, which runs the clean filter.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

HOOKS = ("post-index-change", "pre-commit", "post-checkout", "post-merge", "reference-transaction",
         "pre-auto-gc", "post-rewrite", "fsmonitor-watchman")


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def plant(repo: Path, marks: Path) -> Path:
    """Make ``repo`` (a git work tree with a commit) hostile; every command it runs touches a file
    in ``marks``. Returns ``marks``."""
    marks.mkdir(parents=True, exist_ok=True)
    attrs = repo / ".gitattributes"
    attrs.write_text(attrs.read_text() if attrs.exists() else "")
    with attrs.open("a") as f:
        f.write("* filter=evil diff=evil\n*.md filter=a=b\n")
    _git(repo, "add", ".gitattributes")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "attributes")

    def cmd(name: str) -> str:
        return f"sh -c 'touch {marks}/{name}; cat'"

    for key, value in {
        "core.fsmonitor": f"touch {marks}/fsmonitor; false",
        "core.hooksPath": str(repo / ".git" / "hooks"),
        "diff.external": cmd("diff-external"),
        "diff.evil.textconv": cmd("textconv"),
        "diff.evil.command": cmd("diff-command"),
        "filter.evil.clean": cmd("clean"),
        "filter.evil.smudge": cmd("smudge"),
        "filter.evil.process": cmd("process"),
        "filter.evil.required": "true",
        "filter.a=b.clean": cmd("clean-odd-name"),
    }.items():
        _git(repo, "config", key, value)
    hooks = repo / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    for hook in HOOKS:
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marks}/hook-{hook}\n")
        (hooks / hook).chmod(0o755)
    # unchanged content, new mtime: git has to hash the files again (through the clean filter)
    for path in sorted(p for p in repo.rglob("*") if p.is_file() and ".git" not in p.parts)[:50]:
        os.utime(path, (1_600_000_000, 1_600_000_000))
    return marks


def fired(marks: Path) -> list[str]:
    return sorted(p.name for p in marks.iterdir())
