"""Services named loosely in a task: run together ("paymentservice"), split ("voting app" for
"voting-app"), misspelt ("recomendation"), shortened ("notif" for "notification-service") or
named by the repository that holds them alone. Exact names are the search index's job; this
catches what people really type in commit messages and tickets."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from attrs import frozen

from orbitkb.domain.model import Service
from orbitkb.domain.text import split_identifier

#: Words that decorate service names without naming anything.
DECORATION = frozenset("service services svc server srv api app application ms micro microservice backend".split())
MIN_COMPACT = 5  # shorter run-together names collide with ordinary words
MIN_PREFIX = 4
#: "bill" is not short for "billing": a prefix that only drops an inflection is the plain word.
SUFFIXES = frozenset("s es ed ing ings er ers or ors ment ments ion ions ation ations al ally ly ness ity y".split())
#: Endings that begin with a consonant yet are no words of their own: "transac|tion" is still a shortening.
BOUND_ENDINGS = ("tion", "sion", "ture", "tory", "ship", "ful", "less", "ling", "ble", "cy", "ty")
_VOWELS = frozenset("aeiouy")


def compound_head(word: str, name_word: str) -> bool:
    """Whether ``word`` is the whole first word of a compound ("back" of "background", "book" of
    "bookstore") rather than a shortening of it ("auth" of "authentication", "notif", "recom").

    English shortenings cut inside a syllable: the rest begins with a vowel ("auth|entication"),
    splits a doubled letter ("recom|mendation") or is a bound ending ("transac|tion"). A compound's
    head ends in a consonant and the rest starts a word of its own: a consonant, then a vowel
    within a word's length."""
    rest = name_word[len(word):]
    if not word or word[-1] in _VOWELS or not rest or rest[0] in _VOWELS or rest[0] == word[-1]:
        return False
    if len(rest) < 4 or rest.startswith(BOUND_ENDINGS) or rest in SUFFIXES:
        return False
    return any(c in _VOWELS for c in rest[1:4])


@frozen
class NameMatch:
    service: str
    matched: str  # the task's words that name it
    how: str  # compact | typo | prefix | repository | path


def _compact(words: Sequence[str]) -> str:
    return "".join(words)


def _forms(s: Service, single_in_repo: bool) -> list[tuple[str, str]]:
    """(compact form, how) for each name of the service, decorated and bare."""
    out = []
    names = [s.name, *s.aliases] + ([s.repository] if single_in_repo else [])
    for n in names:
        ws = split_identifier(n)
        bare = [w for w in ws if w not in DECORATION]
        how = "repository" if n == s.repository and single_in_repo and n not in (s.name, *s.aliases) else "compact"
        for form in {_compact(ws), _compact(bare)}:
            if len(form) >= MIN_COMPACT:
                out.append((form, how))
    return out


@lru_cache(maxsize=1 << 16)  # the services' names are the same on every request
def _distance_at_most(a: str, b: str, limit: int) -> bool:
    """Damerau-Levenshtein distance (adjacent swaps count one) <= limit, with an early exit."""
    if abs(len(a) - len(b)) > limit:
        return False
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return False
        prev2, prev = prev, cur
    return prev[-1] <= limit


def _typo_limit(n: int) -> int:
    return 0 if n < 6 else 1 if n < 10 else 2


_PATH = re.compile(r"(?<![\w/])\.?/?([\w.-]+(?:/[\w.-]+)*/?)")


def by_path(task: str, services: Sequence[Service]) -> list[NameMatch]:
    """Services whose folder the task writes as a path: "frontend/templates: ...", "./booking-service/"."""
    return _by_path(task, _roots(tuple((s.name, s.root_dir) for s in services)))


@lru_cache(maxsize=8)  # the same services on every request of a snapshot
def _roots(folders: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """(root folder, service name), deepest first."""
    return tuple(sorted(((root_dir.strip("./").rstrip("/"), name) for name, root_dir in folders
                         if root_dir.strip("./")), key=lambda rs: -len(rs[0])))


def _by_path(task: str, roots: tuple[tuple[str, str], ...]) -> list[NameMatch]:
    out: dict[str, NameMatch] = {}
    for m in _PATH.finditer(task):
        token = m.group(1)
        if "/" not in token:
            continue
        token = token.strip("/")
        for root, name in roots:  # the deepest root that holds the path
            if token == root or token.startswith(root + "/"):
                out.setdefault(name, NameMatch(name, token, "path"))
                break
    return [out[k] for k in sorted(out)]


_Names = tuple[tuple[str, tuple[str, ...], str, str], ...]  # (name, aliases, repository, root) of each service


@frozen
class _NameIndex:
    """What loose_names needs of the services alone, looked up by the task's words rather than
    scanned service by service: each service's compact forms by form (service index, form index,
    how) and, for forms long enough to be misspelt, by first letter; the services with
    distinctive (shortenable) words; how many services' names hold each word."""

    names: tuple[str, ...]
    word_count: Counter[str]
    exact: dict[str, list[tuple[int, int, str]]]
    typo_forms: dict[str, list[tuple[int, int, str, int]]]
    shortenable: tuple[tuple[int, tuple[str, ...]], ...]
    roots: tuple[tuple[str, str], ...]


@lru_cache(maxsize=8)  # the same services on every request of a snapshot
def _name_index(names: _Names) -> _NameIndex:
    services = [Service("", name, repository, root, "", aliases=aliases) for name, aliases, repository, root in names]
    per_repo = Counter(s.repository for s in services)
    # a word in the names of many services ("ts", "order" in ts-order-*) names none of them
    word_count = Counter(w for s in services for w in {w for n in (s.name, *s.aliases) for w in split_identifier(n)})
    exact: dict[str, list[tuple[int, int, str]]] = {}
    typo_forms: dict[str, list[tuple[int, int, str, int]]] = {}
    shortenable = []
    for si, s in enumerate(services):
        for fi, (form, how) in enumerate(_forms(s, per_repo[s.repository] == 1)):
            exact.setdefault(form, []).append((si, fi, how))
            if limit := _typo_limit(len(form)):
                typo_forms.setdefault(form[0], []).append((si, fi, form, limit))
        distinctive = tuple(w for n in (s.name, *s.aliases) for w in split_identifier(n)
                            if w not in DECORATION and len(w) >= 7 and word_count[w] <= 1)
        if distinctive:
            shortenable.append((si, distinctive))
    return _NameIndex(tuple(s.name for s in services), word_count, exact, typo_forms, tuple(shortenable),
                      _roots(tuple((s.name, s.root_dir) for s in services)))


def loose_names(task: str, services: Sequence[Service]) -> list[NameMatch]:
    """Services the task names loosely (never one its words only brush against). Each service's
    first form (in its forms' order) the task writes run together or misspells names it."""
    tokens = [w for w in split_identifier(task) if w]
    # runs of 1..3 adjacent task words, run together: "payment service" -> "paymentservice"
    runs: dict[str, str] = {}
    for i in range(len(tokens)):
        for k in range(1, 4):
            if i + k <= len(tokens):
                ws = tokens[i : i + k]
                runs.setdefault(_compact(ws), " ".join(ws))
                bare = [w for w in ws if w not in DECORATION]
                if bare:
                    runs.setdefault(_compact(bare), " ".join(ws))
    index = _name_index(tuple((s.name, s.aliases, s.repository, s.root_dir) for s in services))
    crowded = max(2, len(services) // 3)
    typos: dict[str, list[tuple[str, str]]] = {}  # runs long enough to be a typo, by first letter, in order
    for run, text in runs.items():
        if len(run) >= 6:
            typos.setdefault(run[0], []).append((run, text))
    # per service its first matching form: (form index, 0 when written run together / 1 misspelt, match)
    first: dict[int, tuple[int, int, NameMatch]] = {}
    for run, text in runs.items():
        for si, fi, how in index.exact.get(run, ()):
            if si not in first or fi < first[si][0]:
                first[si] = (fi, 0, NameMatch(index.names[si], text, how))
    for letter, written in typos.items():
        for si, fi, form, limit in index.typo_forms.get(letter, ()):
            if si in first and first[si][0] <= fi:
                continue  # an earlier (or the same, written as is) form already names it
            hit = next((text for run, text in written if _distance_at_most(run, form, limit)), None)
            if hit is not None:
                first[si] = (fi, 1, NameMatch(index.names[si], hit, "typo"))
    shortenable = dict(index.shortenable)
    out: dict[str, NameMatch] = {}
    for si in sorted(first.keys() | shortenable.keys()):  # in the services' order: the first of a name wins
        name = index.names[si]
        if si in first:
            out.setdefault(name, first[si][2])
            continue
        if name in out:
            continue
        # a shortened distinctive word of the name: "notif" -> notification-service
        distinctive = shortenable[si]
        for t in tokens:
            if len(t) >= MIN_PREFIX and any(w.startswith(t) and len(t) < len(w) and len(t) >= 0.4 * len(w)
                                            and w[len(t):] not in SUFFIXES and not compound_head(t, w)
                                            for w in distinctive):
                out[name] = NameMatch(name, t, "prefix")
                break
    word_count = index.word_count
    dropped = {n for n, m in out.items() if m.how == "prefix" and word_count[m.matched] > crowded}
    # "ts order other" names ts-order-other-service, not also ts-order-service
    dropped |= {n for n, m in out.items() for o in out.values()
                if o.service != n and m.matched != o.matched and f" {m.matched} " in f" {o.matched} "}
    found = [m for n, m in sorted(out.items()) if n not in dropped]
    seen = {m.service for m in found}
    return found + [m for m in _by_path(task, index.roots) if m.service not in seen]
