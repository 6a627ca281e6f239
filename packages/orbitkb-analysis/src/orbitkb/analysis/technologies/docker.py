"""Dockerfile base images: each ``FROM image[:tag]`` that is not an earlier build stage."""

from __future__ import annotations

import re
from collections.abc import Mapping

from orbitkb.analysis.technologies.found import Found, clean_version

_VAR = re.compile(r"\$\{(\w+)(?::?[-+]([^}]*))?\}|\$(\w+)")


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Instructions with their continuation lines joined, each with its first line number."""
    out: list[tuple[int, str]] = []
    pending: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not pending:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = number
        elif line.lstrip().startswith("#"):
            continue  # comments inside a continued instruction
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1])
            continue
        pending.append(line)
        out.append((start, "".join(pending)))
        pending = []
    if pending:
        out.append((start, "".join(pending)))
    return out


def _substitute(value: str, args: Mapping[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(3)
        if name in args:
            return args[name]
        return match.group(2) if match.group(2) is not None else match.group(0)

    return _VAR.sub(one, value)


def split_image(ref: str) -> tuple[str, str | None]:
    """``registry:5000/team/api:1.2@sha256:…`` -> (``registry:5000/team/api``, ``1.2``)."""
    ref, _, digest = ref.partition("@")
    slash = ref.rfind("/")
    colon = ref.rfind(":")
    if colon > slash:
        return ref[:colon], clean_version(ref[colon + 1 :])
    return ref, clean_version(digest) if digest else None


def read(path: str, text: str, texts: Mapping[str, str]) -> list[Found]:
    args: dict[str, str] = {}
    stages: set[str] = set()
    seen_from = False
    out: list[Found] = []
    for number, line in _logical_lines(text):
        words = line.split()
        instruction = words[0].upper()
        if instruction == "ARG" and not seen_from and len(words) > 1:
            name, sep, default = words[1].partition("=")
            if sep:
                args[name] = default.strip("\"'")
        if instruction != "FROM":
            continue
        seen_from = True
        rest = [w for w in words[1:] if not w.startswith("--")]
        if not rest:
            continue
        image = _substitute(rest[0], args)
        earlier_stage = image.lower() in stages
        if len(rest) >= 3 and rest[1].upper() == "AS":
            stages.add(rest[2].lower())
        if earlier_stage or image.lower() == "scratch" or "$" in image or not image:
            continue
        name, version = split_image(image)
        out.append(Found("base_image", name, version, path, number, image))  # the note keeps every tag
    return out
