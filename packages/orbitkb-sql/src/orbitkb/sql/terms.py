"""The words of a search: how user terms become tokens and phrases, the field weights both
full-text indexes rank with, and which field best explains a hit — shared by every store.

Tokens are letters and digits only (case- and accent-folded as FTS5's unicode61 sees them), so no
user term ever reaches a query language's syntax.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

#: Indexed columns with their weights, highest first: a name match outweighs a keyword match
#: which outweighs a match in free text.
WEIGHTS: tuple[tuple[str, float], ...] = (("name_text", 10.0), ("keywords", 4.0), ("text", 1.0))
UNINDEXED = ("kind", "ref_id", "service_id", "service", "name", "repository")
MAX_TERMS = 32
MAX_TERM_CHARS = 100
MAX_LIMIT = 500
_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    """Word tokens the way FTS5's unicode61 tokenizer sees them: case- and accent-folded."""
    if text.isascii():  # nothing to decompose or strip: the same tokens, without a pass per character
        return _TOKEN.findall(text.lower())
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return _TOKEN.findall(folded)


def phrases(terms: Sequence[str]) -> list[tuple[str, ...]]:
    """The distinct non-empty token phrases of ``terms``, in order, capped."""
    seen: dict[tuple[str, ...], None] = {}
    for term in terms:
        phrase = tuple(tokens(str(term)[:MAX_TERM_CHARS]))
        if phrase:
            seen.setdefault(phrase, None)
    return list(seen)[:MAX_TERMS]


def best_field(values: dict[str, str], found: Sequence[tuple[str, ...]]) -> str:
    """The column that best explains a hit: most matched phrases times the column's weight. The
    lowest-weight column (free text, possibly a whole service's vocabulary) is tokenised only
    when no other column explains the hit: it is then the answer whatever it holds."""
    best, best_score = WEIGHTS[-1][0], 0.0
    for name, weight in WEIGHTS[:-1]:
        column = _spaced(values.get(name) or "")
        score = weight * sum(1 for phrase in found if " " + " ".join(phrase) in column)
        if score > best_score:
            best, best_score = name, score
    return best


@functools.lru_cache(maxsize=8192)
def _spaced(text: str) -> str:
    """A column's tokens, each after a space, split once per distinct value (the same documents come
    back search after search): tokens hold no space, so a phrase occurs in the column exactly when
    ``" " + " ".join(phrase)`` is a substring — whole tokens, the last one as a prefix (``contains``)."""
    return "".join(" " + token for token in tokens(text))


def contains(column: Sequence[str], phrase: tuple[str, ...]) -> bool:
    """True when ``phrase`` occurs in ``column``, its last token matched as a prefix."""
    *head, last = phrase
    if not head:
        return any(token.startswith(last) for token in column)
    n = len(phrase)
    for i in range(len(column) - n + 1):
        if column[i + n - 1].startswith(last) and list(column[i : i + n - 1]) == head:
            return True
    return False
