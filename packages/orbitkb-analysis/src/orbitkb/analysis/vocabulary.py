"""The vocabulary of source code: the words a developer would grep for (identifiers split into
words, string literals, comments, file names), for low-weight retrieval — never shown as facts.

Per file, the most frequent words are kept with the file's parse result (so they are cached by
content like the parse itself); per service, the words found in the most files are kept. Both
are bounded, so a large service costs no more than a small one in the search index.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

from orbitkb.domain.text import STOPWORDS, split_identifier

VERSION = "w1"  # bump when the words kept change: cached parses and links are redone
PER_FILE = 120
PER_SERVICE = 1500
KEY = "_vocab"
MAX_TEXT = 512 * 1024  # longer texts (generated, data) say little per word and cost time
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]{2,63}")

#: Keywords and names every program in these languages uses: they say nothing about a task.
LANGUAGE = frozenset("""
    abstract any args arguments assert async await bool boolean break byte case catch chan char class
    const constructor continue def default defer del delete double elif else enum err error errors
    except exception export extends false final finally float fmt for func function global goto
    implements import in instanceof int interface isinstance kwargs lambda len let long main map
    module new nil none nonlocal null number object override package pass print println private
    protected public raise range readonly require required return select self short static str
    string struct super switch synchronized this throw throws true try type typeof undefined var
    void volatile while yield java org com util lang javax springframework value values val fun
    println printf sprintf errorf log logger string strings list dict tuple set get int64 int32
    uint float64 ctx context todo fixme http https www
""".split())


def _useful(word: str) -> bool:
    return len(word) >= 3 and not word.isdigit() and word not in STOPWORDS and word not in LANGUAGE


def file_words(text: str) -> list[str]:
    """The file's most frequent useful words, most frequent first (ties alphabetical)."""
    counts: Counter[str] = Counter()
    for token in _IDENT.findall(text):
        for word in split_identifier(token):
            if _useful(word):
                counts[word] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [w for w, _ in ranked[:PER_FILE]]


def path_words(paths: Iterable[str]) -> Counter[str]:
    """Words of file and folder names: ``payment_gateway/StripeClient.java`` -> payment, gateway, stripe, client."""
    counts: Counter[str] = Counter()
    for path in paths:
        stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
        counts.update({w for w in split_identifier(stem) if _useful(w)})
    return counts


def service_words(per_file: Iterable[Sequence[str]], paths: Iterable[str] = (),
                  ranked_before: Sequence[str] = (), files_before: int = 0) -> tuple[str, ...]:
    """Words found in the most files of the service (file names count as one file each).
    ``ranked_before`` is a vocabulary already ranked over ``files_before`` other files (the
    linked code): its words count as if found in a share of those files by their rank."""
    counts: Counter[str] = Counter()
    for words in per_file:
        counts.update(set(words))
    counts.update(path_words(paths))
    n = len(ranked_before)
    for rank, word in enumerate(ranked_before):
        counts[word] += max(1.0, files_before * (1 - rank / n))  # type: ignore[assignment]
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return tuple(w for w, _ in ranked[:PER_SERVICE])
