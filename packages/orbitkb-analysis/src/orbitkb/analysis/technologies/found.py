"""One technology a reader found at one line, before it becomes a domain ``Technology``."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from attrs import frozen

#: The note of a dependency declared for development or tests only (requirements-dev.txt, a dev group).
DEV_NOTE = "dev"
_DEV_NOTES = frozenset({DEV_NOTE, "devDependencies", "test scope"})


def is_dev(note: str | None) -> bool:
    """True for dependencies the running service does not ship with (tests, tooling)."""
    return note is not None and (note in _DEV_NOTES or note.startswith("test"))


@frozen
class Found:
    kind: str  # one of orbitkb.domain.model.TECHNOLOGY_KINDS
    name: str
    version: str | None
    file: str
    line: int
    note: str | None = None  # where it is declared when that is not the runtime section
    #: Declared for the modules below the manifest too (a Maven parent, a Gradle subprojects block).
    shared: bool = False


def line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, max(offset, 0)) + 1


def find_line(text: str, pattern: str, start: int = 0, flags: int = re.M) -> int | None:
    match = re.compile(pattern, flags).search(text, start)
    return line_at(text, match.start()) if match else None


def clean_version(value: object) -> str | None:
    """A declared version as written, or None for "any" ("*", "", "latest")."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    return None if value in ("", "*", "latest") else value[:80]


@cache
def tables() -> dict[str, Any]:
    """The data tables (``technologies.json``): languages, framework signatures, build tools."""
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("technologies.json").read_text("utf-8")
    )
    return data
