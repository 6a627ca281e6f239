"""similar_past_tasks splits each distinct past task text into words once, not on every answer."""

from __future__ import annotations

from orbitkb.domain.change import similar
from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun


def test_each_past_task_is_split_once_across_answers(monkeypatch) -> None:
    calls: list[str] = []
    real = similar.words

    def counting(text: str) -> list[str]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(similar, "words", counting)
    similar.word_set.cache_clear()
    history = ChangeHistory(runs=(
        ChangeSurfaceRun(2, "add a refund endpoint to payments", "t"),
        ChangeSurfaceRun(1, "retry the stock reservation in inventory", "t"),
    ))
    first = similar.similar_past_tasks(history, "add a refund reason to payments", None)
    again = similar.similar_past_tasks(history, "add a refund reason to payments", None)
    similar.similar_past_tasks(history, "retry stock reservation when inventory times out", None)

    assert first == again and [t.run_id for t in first] == [2]
    assert sorted(calls) == sorted({  # every distinct text once: the two past runs and the two tasks
        "add a refund endpoint to payments", "retry the stock reservation in inventory",
        "add a refund reason to payments", "retry stock reservation when inventory times out"})
    similar.word_set.cache_clear()
