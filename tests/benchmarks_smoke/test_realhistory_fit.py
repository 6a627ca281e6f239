"""The real-history refit sees only today's facts: a cached database indexed by another analysis
version is indexed again, and the fit refuses to record a model fitted over two versions."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import realhistory.fit as fitting  # noqa: E402
from realhistory.fit import REFIT, compare, fitted_on  # noqa: E402
from realhistory.run import analysis_version, indexed_app, stale  # noqa: E402

from orbitkb.domain.change.ranking import fitted_on as read_back  # noqa: E402


def _marker(tmp_path: Path, **info: object) -> Path:
    marker = tmp_path / "shop@abc.off.db.json"
    marker.write_text(json.dumps({"parent": "abc", **info}) + "\n", encoding="utf-8")
    return marker


def test_a_database_of_this_analysis_version_is_reused(tmp_path: Path) -> None:
    assert not stale(_marker(tmp_path, analysis=analysis_version()), analysis_version())


@pytest.mark.parametrize("info", [{}, {"analysis": "pipeline-3+python-py-1"}])
def test_a_database_of_another_or_an_unknown_analysis_version_is_indexed_again(tmp_path: Path, info: dict) -> None:
    assert stale(_marker(tmp_path, **info), analysis_version())


def test_a_database_never_indexed_is_indexed(tmp_path: Path) -> None:
    assert stale(tmp_path / "none.json", analysis_version())


def test_a_database_of_another_version_is_kept_when_asked_to_compare_on_one_index(tmp_path: Path) -> None:
    task = {"repository": "shop", "parent": "abc"}
    marker = _marker(tmp_path)  # indexed before markers recorded the analysis version
    (tmp_path / "shop@abc.off.db").write_bytes(b"")
    _, info = indexed_app(tmp_path / "no-clone", task, "off", tmp_path, reindex=False, stale_ok=True)
    assert info == {"parent": "abc"} and marker.exists()


def _sample(repo: str, analysis: str | None) -> dict:
    return {"repository": repo, "analysis": analysis}


def test_the_fit_records_its_analysis_version_tasks_and_repositories() -> None:
    record = fitted_on([_sample("a", "v1"), _sample("a", "v1"), _sample("b", "v1")], 0.6, 0.58, "2030-01-02")
    assert (record["analysis"], record["tasks"], record["repositories"], record["date"]) == ("v1", 3, 2, "2030-01-02")
    assert record["command"] == REFIT
    assert read_back({"fitted_on": record})["analysis"] == "v1"  # what the domain reads back


def test_a_fit_on_databases_that_never_recorded_their_version_says_so_when_asked() -> None:
    record = fitted_on([_sample("a", None), _sample("b", None)], 0.6, 0.58, "2030-01-02", stale_ok=True)
    assert record["analysis"] == "unrecorded"


@pytest.mark.parametrize("versions", [("v1", "v2"), ("v1", None)])
def test_a_fit_over_facts_of_two_analysis_versions_is_not_recorded(versions: tuple) -> None:
    with pytest.raises(SystemExit, match="analysis versions"):
        fitted_on([_sample("a", versions[0]), _sample("b", versions[1])], 0.6, 0.58, "2030-01-02")


class _NoFloorHolds:
    def hold(self, m: object) -> bool:
        return False


def test_a_fit_none_of_whose_cuts_keeps_the_fixture_floors_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import numpy as np

    monkeypatch.setattr(fitting, "fit", lambda data: (np.zeros(len(fitting.ranking.FEATURES)), 0.0))
    monkeypatch.setattr(fitting, "macro_f1", lambda data, m: 0.5)
    with pytest.raises(SystemExit, match="fixture floors"):
        fitting.best_model([], _NoFloorHolds())  # type: ignore[arg-type]
    assert fitting.best_model([]).drop == min(fitting.DROPS)  # without floors: the best cuts


def test_two_leave_one_out_runs_are_compared_task_by_task() -> None:
    before = {"a": 0.5, "b": 1.0, "c": 0.0, "d": 0.25, "gone": 1.0}
    now = {"a": 1.0, "b": 1.0, "c": 0.5, "d": 0.0, "new": 0.0}
    better, worse, p = compare(now, before)
    assert (better, worse) == (2, 1) and p == 1.0  # 2 of 3 changed tasks of one sign: no evidence
    many = {str(i): 1.0 for i in range(10)}
    assert compare(many, dict.fromkeys(many, 0.0)) == (10, 0, 2 / 1024)
    assert compare({}, {}) == (0, 0, 1.0)


def test_no_answered_task_fits_no_answer_size() -> None:
    import numpy as np

    m = fitting.model(np.zeros(len(fitting.ranking.FEATURES)), 0.0, 0.1, 0.5)
    assert fitting.with_sizing([], m).sizing is None
