"""Safe names for files and diagram identifiers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from orbitkb.domain.catalog import qualified_names
from orbitkb.domain.model import Service


def slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "unnamed"


def node_id(name: str) -> str:
    return "n_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def entity_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", name)
    return cleaned if cleaned and cleaned[0].isalpha() else "E_" + cleaned


def unique_names(services: Iterable[Service], safe: Callable[[str], str]) -> dict[str, str]:
    """Service id -> a file or entity name that no other service shares: ``safe`` of the service's
    label (``repository/name`` when several repositories use the name), suffixed when two labels
    still collide once made safe."""
    services = sorted(services, key=lambda s: (s.name, s.repository))
    labels = qualified_names(services)
    out: dict[str, str] = {}
    taken: set[str] = set()
    for s in services:
        base = safe(labels[s.id])
        name, n = base, 2
        while name.lower() in taken:
            name, n = f"{base}-{n}", n + 1
        taken.add(name.lower())
        out[s.id] = name
    return out
