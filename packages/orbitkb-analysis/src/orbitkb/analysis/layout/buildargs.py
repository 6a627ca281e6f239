"""Builds that compile one of several programs chosen by a build argument.

One Dockerfile at a project's root often builds every service of the project, one image per
build argument: ``ARG SERVICE`` then ``RUN go build -o /app ./services/$SERVICE``. The folder
before the variable (``services``) holds the deployables, one per sub-folder with an entry point;
a ``main`` package elsewhere in the project (a scratch program at the root) is not what that
Dockerfile ships.
"""

from __future__ import annotations

import re
import shlex

#: Compiler commands whose package arguments name the folder of the program they build.
BUILD_COMMANDS: tuple[tuple[str, ...], ...] = (("go", "build"), ("go", "install"))
#: Options of those commands that take a value (the next word unless written ``-o=value``).
_VALUED = frozenset({"-o", "-tags", "-ldflags", "-gcflags", "-asmflags", "-mod", "-installsuffix", "-p", "-pkgdir"})
#: A build argument or environment variable reference: ``$SERVICE``, ``${APP}``, ``$(NAME)``.
_VARIABLE = re.compile(r"\$(?:\{\w+\}|\(\w+\)|\w+)")


def _commands(line: str) -> list[list[str]]:
    """The simple commands of one shell line (split at ``&&``, ``||``, ``;`` and ``|``)."""
    out: list[list[str]] = []
    for part in re.split(r"&&|\|\||;|\|", line):
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            words = part.split()
        if words:
            out.append(words)
    return out


def _package_args(words: list[str], start: int) -> list[str]:
    args: list[str] = []
    i = start
    while i < len(words):
        word = words[i]
        if word.startswith("-"):
            name = word.lstrip("-").partition("=")[0]
            i += 2 if ("-" + name) in _VALUED and "=" not in word else 1
            continue
        args.append(word)
        i += 1
    return args


def program_folders(run: str) -> list[str]:
    """The folders (relative to the build context, ``services``) whose sub-folders a ``RUN`` line
    compiles one at a time, chosen by a variable (``go build ./services/$SERVICE``). A package
    path with no variable, or a variable anywhere but in the last segment, names none."""
    out: list[str] = []
    for words in _commands(run):
        # skip leading assignments (CGO_ENABLED=0 GOOS=linux go build ...)
        k = next((i for i, w in enumerate(words) if not re.match(r"^\w+=", w)), len(words))
        words = words[k:]
        for command in BUILD_COMMANDS:
            if tuple(words[: len(command)]) != command:
                continue
            for arg in _package_args(words, len(command)):
                head, _, last = arg.rstrip("/").rpartition("/")
                folder = head.removeprefix("./").strip("/")
                if _VARIABLE.fullmatch(last) and folder and folder != "." and "$" not in folder:
                    out.append(folder)
    return sorted(set(out))
