"""Extraction on examples/shopfront compared exactly with its hand-written ground truth: every
service, API, call, channel and entity found at its documented location, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.ground_truth import diff, expected, extracted, index_example


@pytest.fixture(scope="module")
def differences(tmp_path_factory: pytest.TempPathFactory) -> dict:
    db = Path(tmp_path_factory.mktemp("gt")) / "kb.db"
    return diff(extracted(index_example(str(db))), expected())


@pytest.mark.parametrize("kind", ["services", "apis", "calls", "channels", "entities"])
def test_extraction_equals_ground_truth(differences: dict, kind: str) -> None:
    assert differences[kind] == {"missing": [], "unexpected": []}


def test_libraries_are_not_services(tmp_path: Path) -> None:
    import json

    from tests.support.ground_truth import EXAMPLE

    app = index_example(str(tmp_path / "kb.db"))
    roots = {s.root_dir for s in app.adapters.store().list_services()}
    libs = json.loads((EXAMPLE / "ground_truth.json").read_text())["libraries"]
    assert libs and not roots & set(libs)


def test_expected_smells_are_found(tmp_path: Path) -> None:
    import json

    from tests.support.ground_truth import EXAMPLE

    app = index_example(str(tmp_path / "kb.db"))
    found = {(f.kind, tuple(f.services)) for f in app.use_cases.find_architecture_smells()().findings}
    for smell in json.loads((EXAMPLE / "ground_truth.json").read_text())["expected_smells"]:
        assert (smell["kind"], tuple(sorted(smell["services"]))) in found


def test_resources_from_compose(tmp_path: Path) -> None:
    import json

    from tests.support.ground_truth import EXAMPLE

    app = index_example(str(tmp_path / "kb.db"))
    got = {(r.name, r.kind, r.engine) for r in app.adapters.store().list_resources("shopfront")}
    want = {(r["name"], r["kind"], r["engine"]) for r in json.loads((EXAMPLE / "ground_truth.json").read_text())["resources"]}
    assert got == want
