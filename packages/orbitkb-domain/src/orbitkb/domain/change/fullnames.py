"""Which services a task names in full, and which only share a word of their name with it: "new
portal" names new-portal, not portal; "berth schedule view" names berth-schedule, not
crane-schedule; "orders" names none of orders-intake, orders-archive and their twins in another
language. A name is held in full when the task holds every word of it that tells it apart —
decoration ("service", "api") and the system's own words (a prefix most services' names carry,
"acme-") never do — and no other service named in full holds more of the task's words (the longest
name wins, as a reader takes "new portal" as one name). On the real-history tune half, a service
named in full was a changed one 63 times in 78, a service named by part of its name 28 times in 100."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache

from orbitkb.domain.change.naming import DECORATION, SUFFIXES, NameMatch
from orbitkb.domain.model import Service
from orbitkb.domain.text import stem, words

#: A word in the names of at least this share of a system's services names the system, not one of them.
SYSTEM_SHARE = 0.5
MIN_SERVICES = 3  # below this, no word is "every service's"
MIN_FORM = 3  # a shorter word is no other word's form ("in" is not "ingest" minus an ending)

#: One name or alias: (every word of it, the words that tell it apart), each word with its stem.
_Name = tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]
#: Per service: its name and its names' words.
_Index = tuple[tuple[str, tuple[_Name, ...]], ...]


def name_words(name: str) -> frozenset[str]:
    """A name's words, decoration left out unless nothing else is left."""
    ws = words(name, keep_stopwords=True)
    bare = [w for w in ws if w not in DECORATION]
    return frozenset(bare or ws)


def forms(task: str) -> frozenset[str]:
    """The task's words, their stems, and each word with an ending added or dropped ("pay" for
    payments, "notifications" for notification): what a name word must be among to be held."""
    said = words(task, keep_stopwords=True)
    out = set(said) | {stem(w) for w in said}
    for w in said:
        if len(w) >= MIN_FORM:
            out.update(w + end for end in SUFFIXES)
            out.update(w[:-len(end)] for end in SUFFIXES if w.endswith(end) and len(w) - len(end) >= MIN_FORM)
    return frozenset(out)


def system_words(services: Iterable[Service]) -> frozenset[str]:
    """Name words most of the services share (a common prefix such as the project's name)."""
    return _index(tuple((s.name, s.aliases) for s in services))[1]


@lru_cache(maxsize=8)  # the same services on every request of a snapshot
def _index(names: tuple[tuple[str, tuple[str, ...]], ...]) -> tuple[_Index, frozenset[str],
                                                                  Mapping[str, tuple[int, ...]]]:
    per_service = [(name, [name_words(n) for n in (name, *aliases)]) for name, aliases in names]
    system: frozenset[str] = frozenset()
    if len(per_service) >= MIN_SERVICES:
        counts = Counter(w for _, sets in per_service for w in frozenset().union(*sets))
        system = frozenset(w for w, k in counts.items() if k >= SYSTEM_SHARE * len(per_service))
    index = tuple((name, tuple((_stemmed(ws), _stemmed((ws - system) or ws)) for ws in sets))
                  for name, sets in per_service)
    return index, system, _by_word(index)


def _by_word(index: _Index) -> Mapping[str, tuple[int, ...]]:
    """Each word (and stem) telling a name apart -> the positions in the index of its services:
    a task is only checked against the services one of its words could name."""
    out: dict[str, set[int]] = {}
    for i, (_, names) in enumerate(index):
        for _, own in names:
            for w, st in own:
                out.setdefault(w, set()).add(i)
                out.setdefault(st, set()).add(i)
    return {w: tuple(sorted(ids)) for w, ids in out.items()}


def _stemmed(ws: frozenset[str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((w, stem(w)) for w in ws))


def _held(held_forms: frozenset[str], names: tuple[_Name, ...]) -> frozenset[str] | None:
    """The name words the task holds when it holds one of these names in full, else None."""
    best: frozenset[str] | None = None
    for every, own in names:
        if all(w in held_forms or st in held_forms for w, st in own):  # most names fail at their first word
            got = frozenset(w for w, st in every if w in held_forms or st in held_forms)
            if best is None or len(got) > len(best):
                best = got
    return best


def named_in_full(task: str, services: Iterable[Service], loose: Iterable[NameMatch] = ()) -> frozenset[str]:
    """The services the task names in full: it holds every word that tells one of its names apart,
    and no other service named in full holds more of its words ("new frontend" names new-frontend,
    not frontend). ``loose``: the services named loosely (change/naming.py); a whole name run
    together or misspelt counts as named in full, a shortened word ("sched" for scheduler) stands
    for the word it shortens and the rest of the name must still be there."""
    index, _, by_word = _index(tuple((s.name, s.aliases) for s in services))
    held_forms = forms(task)
    maybe = sorted({i for f in held_forms for i in by_word.get(f, ())})
    sets = {index[i][0]: got for i in maybe if (got := _held(held_forms, index[i][1])) is not None}
    shortened_or_run_together = [m for m in loose if m.service not in sets]
    by_name = dict(index) if shortened_or_run_together else {}
    for m in shortened_or_run_together:
        if m.service not in by_name:
            continue
        if m.how != "prefix":
            sets[m.service] = frozenset()
            continue
        names = by_name[m.service]
        shortened = {w for every, _ in names for w, _ in every if w.startswith(m.matched)}
        if (got := _held(held_forms | shortened, names)) is not None:
            sets[m.service] = got
    # the longest name wins: frontend is inside "new frontend", which names new-frontend
    inside = {a for a, wa in sets.items() for b, wb in sets.items() if a != b and wa and wa < wb}
    return frozenset(sets) - inside
