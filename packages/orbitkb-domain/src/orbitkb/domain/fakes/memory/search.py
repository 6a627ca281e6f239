"""The in-memory ``SearchIndex``: a search that mimics FTS5 — word tokens folded for case and
accents, prefix match on a term's last word, OR across terms, ranked by bm25 with the column
weights name 10 / keywords 4 / text 1."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence

from attrs import evolve

from orbitkb.domain.fakes.memory.state import MemoryState
from orbitkb.domain.ports import SearchDocument, SearchQuery
from orbitkb.domain.runs import SearchHit

WEIGHTS: tuple[tuple[str, float], ...] = (("name_text", 10.0), ("keywords", 4.0), ("text", 1.0))
_TOKEN = re.compile(r"[^\W_]+")
_K1, _B = 1.2, 0.75  # FTS5's bm25 constants


class MemorySearchIndex(MemoryState):
    def search(
        self, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
    ) -> list[SearchHit]:
        found = _phrases(terms)
        if not found or limit <= 0 or (kinds is not None and not kinds):
            return []
        with self._lock:
            docs = [d for _, ds in sorted(self._docs.items()) for d in ds]
        return _rank(docs, found, min(limit, 500), set(kinds) if kinds is not None else None)

    def search_many(self, queries: Sequence[SearchQuery]) -> list[list[SearchHit]]:
        return [[h if q.snippets else evolve(h, snippet=None) for h in self.search(q.terms, q.limit, q.kinds)]
                for q in queries]


def tokens(text: str) -> list[str]:
    """Word tokens as FTS5's unicode61 tokenizer (remove_diacritics 2) produces them."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return _TOKEN.findall("".join(ch for ch in folded if not unicodedata.combining(ch)))


def _phrases(terms: Sequence[str]) -> list[tuple[str, ...]]:
    seen: dict[tuple[str, ...], None] = {}
    for term in terms:
        phrase = tuple(tokens(str(term)[:100]))
        if phrase:
            seen.setdefault(phrase, None)
    return list(seen)[:32]


def _count(column: Sequence[str], phrase: tuple[str, ...]) -> int:
    """Occurrences of ``phrase`` in ``column``, the last word matched as a prefix."""
    n, head = len(phrase), list(phrase[:-1])
    return sum(
        1
        for i in range(len(column) - n + 1)
        if column[i : i + n - 1] == head and column[i + n - 1].startswith(phrase[-1])
    )


def _rank(
    docs: Sequence[SearchDocument], found: Sequence[tuple[str, ...]], limit: int, kinds: set[str] | None
) -> list[SearchHit]:
    """bm25 as FTS5 computes it: per phrase, column-weighted term frequency, length-normalized."""
    columns = [{name: tokens(getattr(d, name)) for name, _ in WEIGHTS} for d in docs]
    counts = [{p: {name: _count(cols[name], p) for name, _ in WEIGHTS} for p in found} for cols in columns]
    lengths = [sum(len(c) for c in cols.values()) for cols in columns]
    avg = (sum(lengths) / len(lengths)) if lengths else 1.0
    total = len(docs)
    idf = {}
    for p in found:
        having = sum(1 for c in counts if any(c[p].values()))
        idf[p] = max(math.log((total - having + 0.5) / (having + 0.5)), 1e-6)
    scored = []
    for doc, cols, doc_counts, length in zip(docs, columns, counts, lengths):
        if kinds is not None and doc.kind not in kinds:
            continue
        score = 0.0
        for p in found:
            freq = sum(weight * doc_counts[p][name] for name, weight in WEIGHTS)
            if freq:
                norm = _K1 * (1 - _B + _B * length / (avg or 1.0))
                score += idf[p] * freq * (_K1 + 1) / (freq + norm)
        if score > 0:
            # as the SQLite store: the best of the weighted columns, the free text only when none matched
            named = [(w * sum(1 for p in found if doc_counts[p][n]), n) for n, w in WEIGHTS[:-1]]
            top = max(named, key=lambda x: x[0])
            field = top[1] if top[0] > 0 else WEIGHTS[-1][0]
            scored.append((score, doc, field, cols[field]))
    scored.sort(key=lambda s: (-s[0], s[1].kind, s[1].name, s[1].ref_id))
    return [
        SearchHit(d.kind, d.service, d.name, score, field, _snippet(getattr(d, field), found), d.ref_id)
        for score, d, field, _ in scored[:limit]
    ]


def _snippet(text: str, found: Sequence[tuple[str, ...]], width: int = 12) -> str | None:
    """About ``width`` words of ``text`` around the first word matching a term."""
    words = text.split()
    for i, word in enumerate(words):
        folded = tokens(word)
        if any(w.startswith(p[0]) for w in folded for p in found):
            start = max(i - width // 2, 0)
            return " ".join(words[start : start + width]) or None
    return " ".join(words[:width]) or None
