"""The history vocabulary of each service: the words people used in the commit messages that
touched the folders it owns. A team describes changes to one service in recurring words (ticket
prefixes, feature names, jargon) that its code may never spell; read from the last commits up to
the indexed one only, so an index of a past commit knows nothing that came after it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from attrs import evolve

from orbitkb.domain.model import ServiceFacts
from orbitkb.domain.ports.sources import CommitRecord
from orbitkb.domain.text import words

#: How many commits back an index reads (bounded: a repository's whole history is not needed).
HISTORY_LIMIT = 1000
#: A commit touching more services than this is a sweep (a version bump, a reformat): its words
#: describe no one service.
MAX_SERVICES_PER_COMMIT = 5
#: At most this many distinct words per service, most frequent first.
MAX_WORDS = 300
MAX_REPEAT = 6
#: Of a long body (generated release notes, a pasted log), only the beginning says what changed.
MAX_BODY = 1000
#: Trailer lines ("Signed-off-by: …", "Co-authored-by: …") and addresses name people, not changes.
_TRAILER = re.compile(r"^\s*[A-Za-z][\w-]*-by:.*$|https?://\S+|\b[\w.+-]+@[\w.-]+\b", re.MULTILINE)


def owner_of(path: str, roots: Sequence[tuple[str, str]]) -> str | None:
    """The service owning ``path``: the longest root folder containing it (``.`` owns everything)."""
    for root, name in roots:
        if root in (".", "") or path == root or path.startswith(root.rstrip("/") + "/"):
            return name
    return None


def history_words(facts: Sequence[ServiceFacts], commits: Sequence[CommitRecord]) -> dict[str, tuple[str, ...]]:
    """Per service name, the words of the commits that touched it, as a bounded bag (a word
    repeated with the log of how many commits used it)."""
    roots = sorted(((f.service.root_dir.strip("/") or ".", f.service.name) for f in facts),
                   key=lambda r: (-len(r[0]) if r[0] != "." else 1, r[1]))
    counts: dict[str, Counter[str]] = {}
    folders: dict[str, str | None] = {}  # a folder's owner, asked once (a sweep lists thousands of files)
    for c in commits:
        owners: set[str] = set()
        for p in c.files:
            folder = p.rpartition("/")[0]
            if folder not in folders:
                folders[folder] = owner_of(f"{folder}/_" if folder else "_", roots)
            if (o := folders[folder]) is not None:
                owners.add(o)
                if len(owners) > MAX_SERVICES_PER_COMMIT:
                    break
        if not owners or len(owners) > MAX_SERVICES_PER_COMMIT:
            continue
        message = _TRAILER.sub(" ", f"{c.subject}\n{c.body[:MAX_BODY]}")
        said = set(w for w in words(message) if len(w) >= 2 and not w.isdigit())
        for name in owners:
            counts.setdefault(name, Counter()).update(said)
    return {name: _bag(counter) for name, counter in counts.items()}


def with_history(facts: Sequence[ServiceFacts], commits: Sequence[CommitRecord]) -> list[ServiceFacts]:
    """The facts, each service carrying its history vocabulary (empty without history)."""
    bags = history_words(facts, commits)
    return [evolve(f, history=bags.get(f.service.name, ())) for f in facts]


def _bag(counter: Counter[str]) -> tuple[str, ...]:
    out: list[str] = []
    for word, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:MAX_WORDS]:
        out.extend([word] * min(MAX_REPEAT, n.bit_length()))
    return tuple(out)
