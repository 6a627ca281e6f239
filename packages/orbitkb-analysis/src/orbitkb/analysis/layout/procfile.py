"""Procfile processes (Heroku, foreman, honcho): which folder of code each process runs.

A Procfile line ``name: command`` starts one process. The command names the code it runs by a
path (``go run www/main.go``, ``node services/api/index.js``, ``cd billing && npm start``) or by a
module (``gunicorn orders.app:app``, ``python -m billing.worker``); a process that names no code
of the repository (``mkdocs serve``, ``npm run docs``) says nothing. Paths are relative to the
Procfile's folder, where the processes start.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Iterator

from attrs import frozen

from orbitkb.analysis import filetypes as ft
from orbitkb.analysis import paths

NAME = "Procfile"
_LINE = re.compile(r"^\s*([A-Za-z0-9_][\w-]*)\s*:\s*(\S.*)$")
#: Words joining two commands: after ``cd x &&`` the next command runs in ``x``.
_JOINERS = frozenset({"&&", ";", "||"})
#: Options whose value is a module (``python -m orders``, ``celery -A orders.tasks worker``).
_MODULE_FLAGS = frozenset({"-m", "-A", "--app"})


@frozen
class Process:
    """A process a description file starts: a Procfile line, a serverless.yml function."""

    name: str  # web, worker, clock...
    folder: str  # the folder of code it runs
    file: str  # the Procfile
    line: int
    kind: str = "process"

    def reason(self) -> str:
        return f"{paths.basename(self.file)} {self.kind} {self.name!r}"


def is_procfile(path: str) -> bool:
    return paths.basename(path) == NAME


def _module_paths(word: str) -> Iterator[str]:
    """``orders.app:app`` -> ``orders/app``, ``orders``: where a Python-style module lives."""
    module = word.split(":", 1)[0]
    if not re.fullmatch(r"[A-Za-z_][\w.]*", module):
        return
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        yield "/".join(parts[:n])


def _named(word: str, prev: str, cwd: str, code: Collection[str], folders: Collection[str]) -> str | None:
    """The folder of code ``word`` names from ``cwd`` (``prev`` is the word before it), or None."""
    word = word.strip().rstrip("/")
    if word.startswith("--") and "=" in word:  # --app=orders.main:app
        word = word.partition("=")[2]
    if not word or word.startswith(("-", "$")) or "://" in word or "=" in word:
        return None
    target = paths.join(cwd, word)
    if target is not None and target in code:
        return paths.parent(target)
    if target is not None and target in folders and (target != cwd or word in (".", "./")):
        return target  # ``go run ./orders``, ``go run .``
    if "/" in word or not ("." in word or ":" in word or prev in _MODULE_FLAGS):
        return None  # a plain word (``node``, ``serve``) is a program or a sub-command, not a module
    for module in _module_paths(word):
        base = paths.join(cwd, module)
        if base is None:
            continue
        if any(f"{base}{suffix}" in code for suffix in ft.CODE_STACKS):
            return paths.parent(base)
        if base in folders and base != cwd:
            return base
    return None


def read_processes(path: str, text: str, code: Collection[str], folders: Collection[str]) -> list[Process]:
    """The processes of one Procfile that run code of the repository. ``code`` holds the code
    files' paths, ``folders`` every folder holding code."""
    base = paths.parent(path)
    out: list[Process] = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _LINE.match(line)
        if match is None:
            continue
        name, command = match.groups()
        try:
            words = shlex.split(command, comments=True)
        except ValueError:
            words = command.split()
        cwd, found = base, None
        for i, word in enumerate(words):
            if word == "cd" and i + 1 < len(words):
                cwd = paths.join(cwd, words[i + 1]) or cwd
                continue
            if word in _JOINERS or (i and words[i - 1] == "cd"):
                continue
            found = _named(word, words[i - 1] if i else "", cwd, code, folders)
            if found is not None:
                break
        if found is None and cwd != base and cwd in folders:
            found = cwd  # ``cd billing && npm start``
        if found is not None:
            out.append(Process(name, found, path, number))
    return out
