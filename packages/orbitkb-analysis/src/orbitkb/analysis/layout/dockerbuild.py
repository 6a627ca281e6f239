"""Images built by ``docker build`` in a Makefile or a shell script: which folder each image is.

Compose files and Kubernetes manifests often run an image by name only (``image: acme/shop-api``)
while the image itself is built by a Makefile target or a script
(``docker build -f build/Dockerfile.api -t acme/shop-api:dev .``). Each such command says which
folder (context) and Dockerfile the image comes from, as a skaffold artifact does; paths are
relative to the file's folder (where ``make`` runs). Commands whose image is a variable
(``-t $(IMAGE)``) say nothing and are skipped.
"""

from __future__ import annotations

import re
import shlex

from orbitkb.analysis import paths

#: (image, context folder, Dockerfile or None, file, line): one image a command builds.
Build = tuple[str, str, str | None, str, int]

#: File names whose text may hold ``docker build`` commands (besides ``*.sh`` scripts).
SCRIPT_NAMES = frozenset({"Makefile", "makefile", "GNUmakefile"})

_BUILD = re.compile(r"\bdocker(?:\s+buildx)?\s+(?:image\s+)?build\b(?P<args>.*)")
#: Options of ``docker build`` that take a value (the next word unless written ``--opt=value``).
_VALUED = frozenset(
    {"-t", "--tag", "-f", "--file", "--build-arg", "--target", "--platform", "--label", "--network",
     "--cache-from", "--cache-to", "--secret", "--ssh", "--progress", "-o", "--output", "--iidfile",
     "--add-host", "--build-context", "--shm-size", "-m", "--memory", "--ulimit", "--builder"}
)  # fmt: skip


def is_build_script(path: str) -> bool:
    return paths.basename(path) in SCRIPT_NAMES or path.endswith(".sh")


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) with backslash-continued lines joined."""
    out: list[tuple[int, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        start, line = i + 1, lines[i]
        while line.rstrip().endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line.rstrip()[:-1] + " " + lines[i]
        out.append((start, line))
        i += 1
    return out


def _words(args: str) -> list[str]:
    args = re.split(r"\s(?:&&|\|\||;|\|)\s|;\s*$", args, maxsplit=1)[0]  # this command only
    try:
        return shlex.split(args, comments=True)
    except ValueError:
        return args.split()


def _parse(args: str) -> tuple[list[str], str | None, str | None]:
    """(tags, dockerfile, context) of one ``docker build`` argument list."""
    tags: list[str] = []
    dockerfile = context = None
    words = _words(args)
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, inline = word.partition("=")
        if word.startswith("-") and name in _VALUED:
            value = inline if eq else (words[i + 1] if i + 1 < len(words) else "")
            i += 1 if eq else 2
            if name in ("-t", "--tag"):
                tags.append(value)
            elif name in ("-f", "--file"):
                dockerfile = value
            continue
        if not word.startswith("-") and context is None:
            context = word
        i += 1
    return tags, dockerfile, context


def read_builds(path: str, text: str) -> list[Build]:
    """The images a Makefile or shell script builds, each with its context and Dockerfile."""
    base = paths.parent(path)
    out: list[Build] = []
    for line_no, line in _logical_lines(text):
        match = _BUILD.search(line)
        if match is None or line.lstrip().startswith("#"):
            continue
        tags, dockerfile, context = _parse(match.group("args"))
        if context is None or "$" in context or (dockerfile and "$" in dockerfile):
            continue
        folder = paths.join(base, context)
        built = paths.join(base, dockerfile) if dockerfile else None
        if folder is None:
            continue  # an absolute or outside path: not a folder of this repository
        out.extend((tag, folder, built, path, line_no) for tag in tags if tag and "$" not in tag)
    return out
