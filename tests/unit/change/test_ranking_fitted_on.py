"""The learned evidence mix is only as good as the facts it was fitted on: ranking.json records the
analysis version of the indexes the fit saw (the CodeAnalyzer port's ``version``), and this test
fails when the analyzers of the tree have moved since, until the model is fitted again.
The domain reads the record as data; only this test holds it against the analysis adapter."""

from __future__ import annotations

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.analysis.reading import vocabulary
from orbitkb.domain.change.ranking import FEATURES, FITTED_ON, fitted_on, packaged


def test_the_packaged_model_was_fitted_on_the_analyzers_of_this_tree() -> None:
    record = fitted_on(packaged())
    recorded, today = record["analysis"], StaticCodeAnalyzer(workers=0).version
    assert recorded == today, (
        f"ranking.json was fitted on facts of analysis {recorded}, the tree's analyzers are {today}: "
        f"fit it again ({record['command']}) and commit the new ranking.json with the analyzer change")


def test_the_packaged_model_says_how_much_it_was_fitted_on() -> None:
    record = fitted_on(packaged())
    assert set(FITTED_ON) <= set(record)
    assert int(str(record["tasks"])) >= 100 and int(str(record["repositories"])) >= 10
    assert "fit.py" in str(record["command"]) and "--write" in str(record["command"])


@pytest.mark.parametrize("bad", [
    {},
    {"fitted_on": "yesterday"},
    {"fitted_on": {"analysis": "pipeline-1", "tasks": 3}},
    {"fitted_on": {"analysis": "", "tasks": 3, "repositories": 1, "date": "2020-01-01", "command": "x"}},
])
def test_a_model_that_does_not_say_what_it_was_fitted_on_is_a_clear_error(bad: dict) -> None:
    with pytest.raises(ValueError, match="ranking model"):
        fitted_on({"weights": dict.fromkeys(FEATURES, 0.0), "bias": 0.0, "drop": 0.1, "add": 0.5, **bad})


def test_the_analysis_version_moves_with_every_table_the_caches_are_keyed_by(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a new word list changes the facts as surely as a new parser: the fit must notice both
    before = StaticCodeAnalyzer(workers=0).version
    monkeypatch.setattr(vocabulary, "VERSION", vocabulary.VERSION + "-next")
    after = StaticCodeAnalyzer(workers=0).version
    assert before != after and before.startswith("pipeline-")
    assert {stack.split("-")[0] for stack in before.split("+")} >= {"pipeline", "python", "jvm", "node", "vocabulary"}

