"""Tasks about what users see ("show the shipping cost on the cart page") change the user-facing
service even when no word names it. Data, not code: the words that mark such a task and the names
that mark a user-facing service."""

from __future__ import annotations

from collections.abc import Sequence

from orbitkb.domain.change.classify import Classified
from orbitkb.domain.model import Service
from orbitkb.domain.text import stem, words

UI_TASK_WORDS = frozenset(stem(w) for w in """page pages screen screens button buttons form forms ui ux view
    views template templates render display displayed show shown banner menu click clicks visible see
    layout css style styles theme dropdown modal tab tabs checkbox label labels link links""".split())
UI_SERVICE_WORDS = frozenset("""frontend front web webapp ui spa portal storefront website bff
    dashboard console client""".split())
UI_CONFIDENCE = 0.45


def is_ui_task(task: str) -> bool:
    return any(stem(w) in UI_TASK_WORDS for w in words(task, keep_stopwords=True))


def ui_services(services: Sequence[Service]) -> list[Service]:
    out = []
    for s in services:
        names = {w for n in (s.name, *s.aliases) for w in words(n, keep_stopwords=True)}
        if names & UI_SERVICE_WORDS:
            out.append(s)
    return out


def add_ui(task: str, findings: list[Classified], services: Sequence[Service]) -> list[Classified]:
    """Promote the user-facing service(s) to secondary for a UI task (never demote anything)."""
    if not is_ui_task(task):
        return findings
    ui = ui_services(services)
    if not ui or len(ui) > 2:  # several candidates: the words cannot tell which one
        return findings
    chosen = {f.service for f in findings if f.tier in ("primary", "secondary")}
    out = [f for f in findings if f.service not in {s.name for s in ui} or f.service in chosen]
    for s in ui:
        if s.name not in chosen:
            out.append(Classified(s.name, "secondary", "the task is about what users see, and this is the "
                                  "user-facing service", UI_CONFIDENCE, ()))
    return out
