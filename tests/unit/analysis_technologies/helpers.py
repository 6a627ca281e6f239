"""Compact views of what the technology readers found."""

from __future__ import annotations

from collections.abc import Iterable

from orbitkb.analysis.technologies.found import Found


def rows(found: Iterable[Found], kind: str = "library") -> list[tuple]:
    """(name, version, line, note) of one kind, sorted by name."""
    return sorted((f.name, f.version, f.line, f.note) for f in found if f.kind == kind)
