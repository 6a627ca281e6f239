"""Honest abstention measured on real code: sentences that are not software work (everyday chores,
general knowledge, nonsense) asked of every repository of the benchmark, indexed at its newest task's
parent. Each should get empty primary and secondary lists. None of these sentences is the set the
off-topic rule was calibrated on (tests/integration/change_quality/test_abstention.py): they are a
fresh sample, written for this check, so the figure says how the rule holds on text it never saw."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from changebench.runner import predict

from .run import indexed_app

SENTENCES = (
    "Vacuum the stairs and the hallway carpet",
    "Buy fresh bread and milk on the way home",
    "Which river flows through Vienna",
    "Write a birthday card for grandmother",
    "Replace the flat tyre on the bicycle",
    "Practise the piano scales for twenty minutes",
    "Defrost the freezer before the weekend",
    "Summarise the plot of a famous opera",
    "Pick apples in the orchard this afternoon",
    "Sew a button back onto the coat",
    "Train for the half marathon in spring",
    "Choose curtains for the guest bedroom",
    "Return the library books before Friday",
    "Memorise the capitals of South America",
    "Repaint the garden shed dark blue",
    "Bake sourdough bread with rye flour",
    "Visit the museum of natural history",
    "Mow the lawn and trim the hedges",
    "Fold the laundry and put it away",
    "Learn the lyrics of an old folk song",
    "Call the plumber about the boiler noise",
    "Photograph the sunset over the harbour",
    "Arrange flowers for the dinner table",
    "Sharpen the kitchen knives",
    "Rake the autumn leaves into piles",
    "Invite the neighbours for coffee on Sunday",
    "Wash the car and clean the windscreen",
    "Chop onions and garlic for the soup",
    "Mend the fence around the vegetable patch",
    "Tell a bedtime story about a dragon",
    "glorbix wuzzle pranf",
    "fnord quibble zarp",
    "snorkelwhip dangleberry mox",
    "trabble vint oozle",
    "plimsoll wazzock grumf",
    "zibber zabber quonk",
    "mipple dorf yanx",
    "wibbly snoot kraff",
    "blarp vonnegut squee",
    "hoodle poffin trask",
)


def abstention(tasks: Sequence[dict[str, Any]], clones: Path, embedder: str, cache: Path,
               sentences: Sequence[str] = SENTENCES) -> dict[str, Any]:
    """Per repository (its newest task's database), the sentences that got an answer."""
    newest: dict[str, dict[str, Any]] = {}
    for t in tasks:
        newest[t["repository"]] = t  # the mined tasks are newest last per repository
    answered: dict[str, list[str]] = {}
    asked = 0
    for repo, t in sorted(newest.items()):
        app, _ = indexed_app(clones / repo, t, embedder, cache, False)
        for sentence in sentences:
            asked += 1
            found = predict(app, sentence)["findings"]
            if any(f["tier"] in ("primary", "secondary") for f in found):
                answered.setdefault(repo, []).append(sentence)
    wrong = sum(len(v) for v in answered.values())
    return {"asked": asked, "repositories": len(newest), "answered": wrong,
            "empty_rate": round(1 - wrong / asked, 4) if asked else None, "answered_by_repository": answered}
