"""The baseline: bm25 over each service's raw source files (one document per service, every text
file under its root folder), predicting the top-k services. It knows nothing about APIs, calls or
messages — it is what "grep the repository" gives an agent."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping

from orbitkb.domain.text import stem, words

K1 = 1.2
B = 0.75
MAX_FILE = 512_000
SKIP_EXT = (
    ".png",
    ".jpg",
    ".jpeg",
    ".gif",
    ".ico",
    ".jar",
    ".zip",
    ".gz",
    ".lock",
    ".pdf",
    ".woff",
    ".woff2",
)
SKIP_DIRS = {".git", "node_modules", "target", "build", "dist", "__pycache__", ".venv", "vendor"}


def tokens(text: str) -> list[str]:
    # the same word splitting and stemming orbitkb uses, so the comparison is about what is
    # indexed (a knowledge model vs raw files), not about tokenisation
    return [stem(w) for w in words(text)]


def owner(path: str, roots: Mapping[str, str]) -> str | None:
    """The service whose root folder is the longest prefix of path (roots: service -> root_dir)."""
    best, best_len = None, -1
    for name, root in roots.items():
        prefix = "" if root in ("", ".") else root.rstrip("/") + "/"
        if path.startswith(prefix) and len(prefix) > best_len:
            best, best_len = name, len(prefix)
    return best


def service_texts(files: Iterable[tuple[str, bytes]], roots: Mapping[str, str]) -> dict[str, str]:
    """Concatenated text of every readable file, grouped by owning service."""
    parts: dict[str, list[str]] = {name: [] for name in roots}
    for path, data in files:
        if len(data) > MAX_FILE or path.lower().endswith(SKIP_EXT) or b"\0" in data[:1024]:
            continue
        if SKIP_DIRS.intersection(path.split("/")[:-1]):
            continue
        name = owner(path, roots)
        if name is not None:
            parts[name].append(path + "\n" + data.decode("utf-8", errors="replace"))
    return {name: "\n".join(chunks) for name, chunks in parts.items()}


def files_on_disk(root: str) -> list[tuple[str, bytes]]:
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for f in sorted(filenames):
            full = os.path.join(dirpath, f)
            rel = os.path.relpath(full, root).replace(os.sep, "/")
            try:
                if os.path.getsize(full) <= MAX_FILE:
                    with open(full, "rb") as fh:
                        out.append((rel, fh.read()))
            except OSError:
                continue
    return out


class Bm25:
    """Okapi bm25 over one document per service."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.docs = {name: Counter(tokens(text)) for name, text in sorted(texts.items())}
        self.lengths = {name: sum(c.values()) for name, c in self.docs.items()}
        self.avg = (sum(self.lengths.values()) / len(self.lengths)) if self.lengths else 0.0
        df: Counter[str] = Counter()
        for c in self.docs.values():
            df.update(c.keys())
        n = len(self.docs)
        self.idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def rank(self, query: str) -> list[tuple[str, float]]:
        q = list(dict.fromkeys(tokens(query)))
        scores = []
        for name, counts in self.docs.items():
            s = 0.0
            norm = K1 * (1 - B + B * self.lengths[name] / (self.avg or 1.0))
            for t in q:
                tf = counts.get(t, 0)
                if tf:
                    s += self.idf[t] * tf * (K1 + 1) / (tf + norm)
            scores.append((name, s))
        return sorted(scores, key=lambda x: (-x[1], x[0]))

    def top(self, query: str, k: int) -> list[str]:
        """The k best services with a positive score."""
        return [name for name, s in self.rank(query)[:k] if s > 0]
