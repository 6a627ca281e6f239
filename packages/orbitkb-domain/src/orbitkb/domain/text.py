"""Words out of identifiers and prose: camelCase / snake_case / kebab / paths split for search."""

from __future__ import annotations

import re
from functools import lru_cache

_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: HTTP methods as words (lower case): in an API's name they say how, never what about.
HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "head", "options"})

STOPWORDS = frozenset(
    """a an and are as at be by for from has have in into is it its of on or that the this to
    was were will with add adds adding support new use using should when which we our their them
    make makes made do does get set let lets allow allows enable enables want wants need needs able
    also so such then there these those than via per each every all any some can could would
    what who whom whose how why where before after about""".split()
)


#: Names (services, APIs, channels) are split again on every request: short texts are remembered.
_SHORT = 64


def split_identifier(name: str) -> list[str]:
    """'createOrderV2' -> ['create', 'order', 'v', '2']; 'order_items' -> ['order', 'items']."""
    return list(_split_short(name)) if len(name) <= _SHORT else list(_split(name))


@lru_cache(maxsize=1 << 16)
def _split_short(name: str) -> tuple[str, ...]:
    return _split(name)


def _split(name: str) -> tuple[str, ...]:
    out: list[str] = []
    for chunk in _WORD.findall(name):
        parts = _CAMEL.findall(chunk) or [chunk]
        out.extend(p.lower() for p in parts)
    return tuple(out)


def words(text: str, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased words of any text, identifiers split, in order, stopwords dropped."""
    out = []
    for w in split_identifier(text or ""):
        if len(w) < 2 and not w.isdigit():
            continue
        if not keep_stopwords and w in STOPWORDS:
            continue
        out.append(w)
    return out


def keywords(*texts: str | None) -> str:
    """A space-joined bag of unique split words, in first-seen order (for search keywords)."""
    seen: dict[str, None] = {}
    for t in texts:
        if t:
            for w in words(t, keep_stopwords=True):
                seen.setdefault(w, None)
    return " ".join(seen)


def normalize_name(name: str) -> str:
    """Canonical form for matching service names: lower, separators unified, common suffixes off."""
    n = name.lower().strip()
    n = re.sub(r"[^a-z0-9]+", "-", n).strip("-")
    for suffix in ("-service", "-svc", "-server", "-api", "-app"):
        if n.endswith(suffix) and len(n) > len(suffix):
            n = n[: -len(suffix)]
            break
    return n


def first_sentence(text: str | None, limit: int = 240) -> str | None:
    if not text:
        return None
    text = " ".join(text.split())
    m = re.search(r"(?<=[.!?])\s", text)
    s = text[: m.start()] if m else text
    return s if len(s) <= limit else s[: limit - 1].rstrip() + "…"


def stem(word: str) -> str:
    """A light suffix stripper for prefix search: 'payments' -> 'payment', 'categories' -> 'categor',
    'shipping' -> 'shipp'. Good enough because the search matches the stem as a prefix. Words are
    stemmed hundreds of times a request (task words, API and service names): short words are
    remembered, like split names."""
    return _stem_short(word) if len(word) <= _SHORT else _stem(word)


@lru_cache(maxsize=1 << 16)
def _stem_short(word: str) -> str:
    return _stem(word)


def _stem(word: str) -> str:
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3]
    if len(w) > 4 and w.endswith(("sses", "xes", "ches", "shes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    if len(w) > 5 and w.endswith("ing"):
        return w[:-3]
    if len(w) > 4 and w.endswith("ed"):
        return w[:-2]
    return w
