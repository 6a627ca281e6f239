"""Repository-relative POSIX path helpers (".", joins that resolve "..", ancestry)."""

from __future__ import annotations

import posixpath


def parent(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else "."


def join(base: str, rel: str) -> str | None:
    """``base``/``rel`` normalized; None when it leaves the repository or is absolute."""
    rel = rel.strip()
    if not rel or rel.startswith(("/", "~")) or "://" in rel:
        return None
    joined = posixpath.normpath(posixpath.join("" if base == "." else base, rel))
    if joined == ".." or joined.startswith("../"):
        return None
    return joined


def is_under(path: str, root: str) -> bool:
    """True when ``path`` is ``root`` or inside it (``root`` "." contains everything)."""
    return root == "." or path == root or path.startswith(root + "/")


def basename(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def ancestors(path: str) -> list[str]:
    """Folders containing ``path``'s folder chain, deepest first, ending with "."."""
    out = []
    current = parent(path)
    while current != ".":
        out.append(current)
        current = parent(current)
    out.append(".")
    return out
