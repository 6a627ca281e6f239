"""Services without code of their own whose folder holds other services' folders (a reverse proxy
or an edge router declared by its image in the repository's root compose file): the files beside
them are the repository's, not theirs, so the words of that code are no evidence that they change."""

from __future__ import annotations

from collections.abc import Iterable

from orbitkb.domain.model import Service
from orbitkb.domain.stacks import STACK_NAMES


def _folder(root: str) -> str:
    return root.strip().strip("/").removeprefix("./").strip("/") if root.strip() not in (".", "./") else ""


def encloses(root: str, other: str) -> bool:
    """Whether folder ``root`` holds folder ``other`` (the repository's root holds every other folder)."""
    a, b = _folder(root), _folder(other)
    return a != b and (not a or b.startswith(a + "/"))


def umbrellas(services: Iterable[Service]) -> frozenset[str]:
    """Names of the services of no analysed stack (declared by an image alone) whose folder holds
    another service's folder of the same repository."""
    listed = list(services)
    return frozenset(s.name for s in listed if s.stack not in STACK_NAMES and any(
        o.repository == s.repository and o.name != s.name and encloses(s.root_dir, o.root_dir) for o in listed))
