"""loose_names looks the task's words up in an index of the services' names built once per set of
services, and answers exactly as the plain scan of every service's forms did (kept here as the
oracle), whatever the services and the task."""

from __future__ import annotations

import random

import pytest

from orbitkb.domain.change import naming
from orbitkb.domain.change.naming import NameMatch, loose_names
from orbitkb.domain.model import Service

WORDS = ("order orders payment notification notifications recommendation inventory shipping checkout cart "
         "user auth authentication billing invoice catalog search gateway api service svc app web frontend "
         "backend ts admin reporting stock booking voting worker email").split()


def scanned(task: str, services: list[Service]) -> list[NameMatch]:
    """The scan loose_names did before its index: every service, every form in order."""
    tokens = [w for w in naming.split_identifier(task) if w]
    runs: dict[str, str] = {}
    for i in range(len(tokens)):
        for k in range(1, 4):
            if i + k <= len(tokens):
                ws = tokens[i : i + k]
                runs.setdefault("".join(ws), " ".join(ws))
                bare = [w for w in ws if w not in naming.DECORATION]
                if bare:
                    runs.setdefault("".join(bare), " ".join(ws))
    per_repo: dict[str, int] = {}
    for s in services:
        per_repo[s.repository] = per_repo.get(s.repository, 0) + 1
    word_count: dict[str, int] = {}
    for s in services:
        for w in {w for n in (s.name, *s.aliases) for w in naming.split_identifier(n)}:
            word_count[w] = word_count.get(w, 0) + 1
    typos: dict[str, list[tuple[str, str]]] = {}
    for run, text in runs.items():
        if len(run) >= 6:
            typos.setdefault(run[0], []).append((run, text))
    out: dict[str, NameMatch] = {}
    for s in services:
        for form, how in naming._forms(s, per_repo[s.repository] == 1):
            if form in runs:
                out.setdefault(s.name, NameMatch(s.name, runs[form], how))
                break
            limit = naming._typo_limit(len(form))
            hit = next((text for run, text in typos.get(form[0], ()) if naming._distance_at_most(run, form, limit)),
                       None) if limit else None
            if hit is not None:
                out.setdefault(s.name, NameMatch(s.name, hit, "typo"))
                break
        if s.name in out:
            continue
        distinctive = [w for n in (s.name, *s.aliases) for w in naming.split_identifier(n)
                       if w not in naming.DECORATION and len(w) >= 7 and word_count[w] <= 1]
        for t in tokens:
            if len(t) >= naming.MIN_PREFIX and any(
                    w.startswith(t) and len(t) < len(w) and len(t) >= 0.4 * len(w) and w[len(t):] not in naming.SUFFIXES
                    and not naming.compound_head(t, w) for w in distinctive):
                out[s.name] = NameMatch(s.name, t, "prefix")
                break
    crowded = max(2, len(services) // 3)
    dropped = {n for n, m in out.items() if m.how == "prefix" and word_count.get(m.matched, 0) > crowded}
    dropped |= {n for n, m in out.items() for o in out.values()
                if o.service != n and m.matched != o.matched and f" {m.matched} " in f" {o.matched} "}
    found = [m for n, m in sorted(out.items()) if n not in dropped]
    seen = {m.service for m in found}
    return found + [m for m in naming.by_path(task, services) if m.service not in seen]


def _system(rnd: random.Random) -> list[Service]:
    services: list[Service] = []
    count = rnd.randint(1, 40)
    for i in range(count):
        name = "-".join(rnd.choice(WORDS) for _ in range(rnd.randint(1, 3)))
        if services and rnd.random() < 0.1:
            name = services[-1].name  # the same name in two repositories
        aliases = tuple("-".join(rnd.choice(WORDS) for _ in range(2)) for _ in range(rnd.randint(0, 1)))
        root = rnd.choice([".", f"services/{name}", f"./{name}/"])
        services.append(Service(f"s{i}", name, f"repo{rnd.randint(0, count // 3)}", root, "python", aliases=aliases))
    return services


def _task(rnd: random.Random, services: list[Service]) -> str:
    parts = []
    for _ in range(rnd.randint(1, 6)):
        word = rnd.choice([*WORDS, "add", "the", "to", *(s.name for s in services[:4]), *(s.repository for s in services[:2])])
        roll = rnd.random()
        if roll < 0.2 and len(word) > 4:  # misspelt: a letter dropped or two swapped
            i = rnd.randrange(len(word) - 2)
            word = rnd.choice([word[:i] + word[i + 1:], word[:i] + word[i + 1] + word[i] + word[i + 2:]])
        elif roll < 0.3:
            word = word[:rnd.randint(3, max(3, len(word)))]  # shortened
        elif roll < 0.4:
            word = word.replace("-", "")  # run together
        elif roll < 0.45:
            word = f"services/{word}/handler.py"
        parts.append(word)
    return " ".join(parts)


@pytest.mark.parametrize("seed", range(6))
def test_the_index_answers_as_the_scan(seed: int) -> None:
    rnd = random.Random(seed)
    named = 0
    for _ in range(40):
        services = _system(rnd)
        for _ in range(8):
            task = _task(rnd, services)
            found = loose_names(task, services)
            assert found == scanned(task, services), task
            named += bool(found)
    assert named > 50  # the comparison is not vacuous


@pytest.mark.parametrize(("task", "expected"), [
    ("paymentservice times out", [("payment-service", "paymentservice", "compact")]),
    ("the recomendation list is stale", [("recommendation", "recomendation", "typo")]),
    ("notif emails arrive twice", [("notification-service", "notif", "prefix")]),
    ("fix services/cart/handler.py", [("cart", "services/cart/handler.py", "path")]),
    ("the weather is nice", []),
])
def test_each_way_of_naming_in_several_styles(task: str, expected: list[tuple[str, str, str]]) -> None:
    services = [Service("a", "payment-service", "shop", "services/payment", "java"),
                Service("b", "recommendation", "shop", "services/recommendation", "python"),
                Service("c", "notification-service", "shop", "services/notification", "go"),
                Service("d", "cart", "shop", "services/cart", "node")]
    found = loose_names(task, services)
    assert [(m.service, m.matched, m.how) for m in found] == expected
    assert found == scanned(task, services)


def test_the_first_service_of_a_name_is_the_one_named() -> None:
    services = [Service("a", "billing", "one", ".", "go"), Service("b", "billing", "two", ".", "go")]
    assert loose_names("billng is slow", services) == scanned("billng is slow", services) == [
        NameMatch("billing", "billng", "typo")]
