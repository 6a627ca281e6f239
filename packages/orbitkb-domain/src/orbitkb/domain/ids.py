"""Content-derived identifiers: the same facts always get the same ids."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable


def make_id(kind: str, *parts: object) -> str:
    """``kind:`` followed by 16 hex digits of a SHA-256 over the parts (None-safe, order-sensitive)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(b"\x1f")
        h.update(("" if part is None else str(part)).encode("utf-8", "surrogatepass"))
    return f"{kind}:{h.hexdigest()[:16]}"


def service_id(repository: str, name: str) -> str:
    return make_id("svc", repository, name)


def content_hash(text: str | bytes) -> str:
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def repr_hash(parts: Iterable[Iterable[object]]) -> str:
    """``content_hash(repr([list(p) for p in parts]))`` without building that text (tens of MB for a
    repository of 20,000 files): the same pieces — brackets, ", " separators, each item's repr —
    fed to the hash one item at a time, so the value is the same."""
    h = hashlib.sha256(b"[")
    for i, part in enumerate(parts):
        h.update(b", [" if i else b"[")
        for j, item in enumerate(part):
            if j:
                h.update(b", ")
            h.update(repr(item).encode("utf-8", "replace"))
        h.update(b"]")
    h.update(b"]")
    return h.hexdigest()
