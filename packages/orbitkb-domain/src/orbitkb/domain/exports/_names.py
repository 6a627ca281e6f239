"""Safe names for files and diagram identifiers."""

from __future__ import annotations

import re


def slug(name: str) -> str:
    s = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return s or "unnamed"


def node_id(name: str) -> str:
    return "n_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def entity_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_-]", "_", name)
    return cleaned if cleaned and cleaned[0].isalpha() else "E_" + cleaned
