"""The vocabulary of source code: the words a developer would grep for (identifiers split into
words, string literals, comments, file names), for low-weight retrieval — never shown as facts.

Per file, the most frequent words are kept with the file's parse result (so they are cached by
content like the parse itself); per service, the words found in the most files are kept. Both
are bounded, so a large service costs no more than a small one in the search index.
"""

from __future__ import annotations

import json
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence

from orbitkb.domain.text import STOPWORDS, split_identifier

VERSION = "w3"  # bump when the words kept change: cached parses and links are redone
PER_FILE = 300
PER_SERVICE = 4000
MAX_REPEAT = 8
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

Counts = dict[str, int]


#: Files whose words are hashes and pinned versions, not the service's vocabulary.
NO_WORDS = frozenset("""package-lock.json npm-shrinkwrap.json yarn.lock pnpm-lock.yaml go.sum poetry.lock
    Pipfile.lock Cargo.lock composer.lock Gemfile.lock uv.lock gradle.lockfile packages.lock.json""".split())


def has_words(path: str) -> bool:
    """False for lock files: their words are hashes and pinned versions, never what a task is about."""
    name = path.rsplit("/", 1)[-1]
    return name not in NO_WORDS and not name.endswith(".lock")


def _useful(word: str) -> bool:
    return len(word) >= 3 and not word.isdigit() and word not in STOPWORDS and word not in LANGUAGE


#: identifier -> its useful words, shared by the files one process reads: code repeats its
#: identifiers, so each is split once (bounded; cleared when full).
_SPLIT: dict[str, tuple[str, ...]] = {}
_SPLIT_MAX = 100_000
#: ``split_identifier``'s camelCase pieces: on an ASCII identifier (all ``_IDENT`` matches) one
#: findall gives its words, underscores included, without the per-chunk loop — hashes in lock
#: files and requirements.txt make tens of thousands of distinct, many-piece identifiers.
_PIECES = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_DROP = STOPWORDS | LANGUAGE


def _token_words(token: str) -> tuple[str, ...]:
    """``[w for w in split_identifier(token) if _useful(w)]`` for an ``_IDENT`` token, memoized."""
    words = _SPLIT.get(token)
    if words is None:
        if len(_SPLIT) >= _SPLIT_MAX:
            _SPLIT.clear()
        lowered = [p.lower() for p in _PIECES.findall(token) if len(p) >= 3]
        words = _SPLIT[token] = tuple(w for w in lowered if w not in _DROP and not w.isdigit())
    return words


def file_words(text: str) -> Counts:
    """The file's most frequent useful words with their counts (at most PER_FILE of them)."""
    counts: dict[str, int] = {}
    get = counts.get
    for token, n in Counter(_IDENT.findall(text)).items():  # each distinct identifier split once
        for word in _token_words(token):
            counts[word] = get(word, 0) + n
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:PER_FILE]
    return dict(ranked)


def path_words(paths: Iterable[str]) -> Counter[str]:
    """Words of file and folder names: ``payment_gateway/StripeClient.java`` -> payment, gateway, stripe, client."""
    counts: Counter[str] = Counter()
    for path in paths:
        stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
        counts.update({w for w in split_identifier(stem) if _useful(w)})
    return counts


def merge(per_file: Iterable[Counts], paths: Iterable[str] = (),
          before: Iterable[Sequence[object]] = ()) -> list[tuple[str, int]]:
    """Summed counts over a service's files (and file names), the most frequent first, bounded.
    ``before`` holds (word, count) pairs already summed (a linked service's code)."""
    counts: Counter[str] = Counter()
    for words in per_file:
        counts.update(words)
    counts.update(path_words(paths))
    for pair in before:
        word, n = pair[0], pair[1]
        if isinstance(word, str) and isinstance(n, int):
            counts[word] += n
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:PER_SERVICE]


def bag(counts: Sequence[tuple[str, int]]) -> tuple[str, ...]:
    """The words as a bag whose repeats grow with the log of each word's count: what a bm25 index
    needs to rank the service by how much of its code is about a word, at a bounded size."""
    out: list[str] = []
    for word, n in counts:
        out.extend([word] * min(MAX_REPEAT, 1 + max(0, n).bit_length() - 1))
    return tuple(out)


def pack_counts(counts: Sequence[Sequence[object]]) -> bytes:
    """(word, count) pairs held compactly until they are read (``unpack_counts``): a linked
    service's words are a large share of what its facts hold, and are read once, at resolution."""
    return zlib.compress(json.dumps([list(pair) for pair in counts], separators=(",", ":")).encode("utf-8",
                                                                                                "surrogatepass"), 1)


def unpack_counts(packed: bytes) -> tuple[tuple[str, int], ...]:
    """The pairs ``pack_counts`` was given, in their order."""
    return tuple((str(w), int(n)) for w, n in json.loads(zlib.decompress(packed).decode("utf-8", "surrogatepass")))
