"""scripts/typecheck.py: every distribution is checked strictly; a baselined one may only go down."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("typecheck", ROOT / "scripts" / "typecheck.py")
assert _spec and _spec.loader
typecheck = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(typecheck)

OUTPUT = """\
packages/orbitkb-mcp/src/orbitkb/mcp/tools.py:30: error: Unexpected keyword argument  [call-arg]
packages/orbitkb-mcp/src/orbitkb/mcp/tools.py:30: note: defined here
packages/orbitkb-analysis/src/orbitkb/analysis/a.py:1: error: Missing return  [no-untyped-def]
packages/orbitkb-analysis/src/orbitkb/analysis/b/c.py:9: error: Missing return  [no-untyped-def]
Found 3 errors in 3 files (checked 9 source files)
""".splitlines()


def test_errors_are_counted_per_distribution_and_notes_are_not_errors() -> None:
    assert typecheck.count_errors(OUTPUT) == {"orbitkb-mcp": 1, "orbitkb-analysis": 2}


def test_an_unlisted_distribution_must_be_clean() -> None:
    failures, _ = typecheck.judge({"orbitkb-mcp": 1}, {}, ["orbitkb-mcp", "orbitkb-git"])
    assert failures == ["orbitkb-mcp: 1 mypy --strict errors, 0 allowed"]


def test_a_baselined_distribution_may_go_down_never_up() -> None:
    assert typecheck.judge({"orbitkb-analysis": 5}, {"orbitkb-analysis": 5}, ["orbitkb-analysis"]) == ([], [])
    failures, _ = typecheck.judge({"orbitkb-analysis": 6}, {"orbitkb-analysis": 5}, ["orbitkb-analysis"])
    assert failures == ["orbitkb-analysis: 6 mypy --strict errors, 5 allowed"]
    failures, notes = typecheck.judge({"orbitkb-analysis": 2}, {"orbitkb-analysis": 5}, ["orbitkb-analysis"])
    assert failures == [] and "lower it" in notes[0]


def test_a_baseline_naming_no_distribution_is_an_error() -> None:
    failures, _ = typecheck.judge({}, {"orbitkb-gone": 3}, ["orbitkb-mcp"])
    assert failures == ["orbitkb-gone: in mypy-baseline.json but not a distribution"]


def test_every_distribution_of_the_workspace_is_found() -> None:
    found = typecheck.packages()
    assert found["orbitkb-domain"] == "orbitkb.domain" and found["orbitkb-llm-cli"] == "orbitkb.llm_cli"
    assert set(found) >= {p.name for p in (ROOT / "packages").iterdir() if (p / "src" / "orbitkb").is_dir()
                          and any((p / "src" / "orbitkb").glob("*/*.py"))}


def test_only_the_analysis_package_has_a_baseline() -> None:
    import json

    assert set(json.loads((ROOT / "scripts" / "mypy-baseline.json").read_text())) <= {"orbitkb-analysis"}
