"""The analysis version names the layout rules too: a layout change moves the facts, so it must move
the version the history benchmark's caches and a fitted ranking are keyed by."""

from __future__ import annotations

import pytest

from orbitkb.analysis import StaticCodeAnalyzer, layout


def test_the_analysis_version_names_the_layout_rules() -> None:
    version = StaticCodeAnalyzer(workers=0).version
    assert f"layout-{layout.VERSION}" in version.split("+")


def test_a_layout_change_alone_moves_the_analysis_version(monkeypatch: pytest.MonkeyPatch) -> None:
    before = StaticCodeAnalyzer(workers=0).version
    monkeypatch.setattr(layout, "VERSION", layout.VERSION + "-next")
    after = StaticCodeAnalyzer(workers=0).version
    assert before != after
    assert [p for p in before.split("+") if not p.startswith("layout-")] == [
        p for p in after.split("+") if not p.startswith("layout-")
    ]  # nothing else moved


def test_no_stack_loaded_still_names_the_layout_rules() -> None:
    analyzer = StaticCodeAnalyzer(modules=("orbitkb.analysis.does_not_exist",), workers=0)
    assert analyzer.version.endswith(f"+layout-{layout.VERSION}")
