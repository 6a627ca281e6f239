"""The import contracts: the layers of the hexagon are declared in order, and the private-module
contract (scripts/import_contracts.py) catches a direct import of ``_name`` modules only."""

from __future__ import annotations

import importlib.util
import json
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("import_contracts", ROOT / "scripts" / "import_contracts.py")
assert _spec and _spec.loader
contracts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(contracts)


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def test_the_layers_go_entry_points_then_bootstrap_then_adapters_then_domain() -> None:
    layers = [[m.strip() for m in layer.replace("|", ":").split(":")]
              for layer in next(c for c in _config()["contracts"] if c["type"] == "layers")["layers"]]
    assert set(layers[0]) == {"orbitkb.cli", "orbitkb.mcp", "orbitkb.ui"}
    assert layers[1] == ["orbitkb.bootstrap"] and layers[-1] == ["orbitkb.domain"]
    between = {m for layer in layers[2:-1] for m in layer}
    assert between >= {"orbitkb.sqlite", "orbitkb.analysis", "orbitkb.git", "orbitkb.fastembed", "orbitkb.llm_cli"}


def test_every_adapter_and_entry_point_is_held_to_the_private_module_contract() -> None:
    private = next(c for c in _config()["contracts"] if c["type"] == "private_modules")
    packages = {f"orbitkb.{p.name}" for p in (ROOT / "packages").glob("orbitkb-*/src/orbitkb/*")
                if p.is_dir() and any(p.glob("*.py"))}
    assert private["container"] == "orbitkb.domain"
    assert packages - set(private["source_modules"]) <= {"orbitkb.domain", "orbitkb.all", "orbitkb.sql",
                                                         "orbitkb.postgres"}


@pytest.mark.parametrize(("module", "private"), [
    ("pkg.core._helpers", True), ("pkg.core.cases._shared", True), ("pkg.core._inner.public", True),
    ("pkg.core.cases", False), ("pkg.core.__main__", False), ("pkg.coreish._x", False), ("pkg.core", False),
])
def test_a_module_is_private_when_a_segment_below_the_container_starts_with_underscore(module: str,
                                                                                     private: bool) -> None:
    assert contracts.is_private(module, "pkg.core") is private


def _package(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_direct_import_of_a_private_module_is_reported_with_its_line(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _package(tmp_path, {
        "hexa/__init__.py": "",
        "hexa/core/__init__.py": "",
        "hexa/core/_shared.py": "X = 1\n",
        "hexa/core/public.py": "from hexa.core._shared import X\n",
        "hexa/adapter/__init__.py": "",
        "hexa/adapter/good.py": "from hexa.core.public import X\n",
        "hexa/adapter/bad.py": "import os\n\nfrom hexa.core._shared import X\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("hexa", cache_dir=None)
    assert contracts.private_imports(graph, ["hexa.adapter"], "hexa.core") == [
        ("hexa.adapter.bad", "hexa.core._shared", 3)]
    assert contracts.private_imports(graph, ["hexa.core"], "hexa.core") == [
        ("hexa.core.public", "hexa.core._shared", 1)]  # (the contract is given only outside packages)
    assert contracts.private_imports(graph, ["hexa.missing"], "hexa.core") == []


def _acyclic() -> dict:
    return next(c for c in _config()["contracts"] if c["type"] == "acyclic_siblings")


def test_every_analyzer_package_is_held_to_the_acyclic_contract() -> None:
    assert _acyclic()["ancestors"] == ["orbitkb.analysis.*"]


_WALKER = "from acyc.stack import calls\n\nclass Walker:\n    name = 'w'\n"
_DETECTOR_BACK = ("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                  "    from acyc.stack.walker import Walker\n\ndef detect(w: 'Walker') -> None: ...\n")
_DETECTOR_SHARED = "from acyc.stack.shapes import Walker\n\ndef detect(w: Walker) -> None: ...\n"
_SHAPES = "from typing import Protocol\n\nclass Walker(Protocol):\n    name: str\n"


@pytest.mark.parametrize(("detector", "kept"), [
    (_DETECTOR_BACK, False),  # a detector naming the walker back, even for annotations only, is a circle
    ("from acyc.stack import walker\n\ndef detect(w: 'walker.Walker') -> None: ...\n", False),
    (_DETECTOR_SHARED, True),  # the shared type in a module of its own: imports go one way
    ("def detect(w: object) -> None: ...\n", True),
])
def test_the_acyclic_contract_as_configured_breaks_on_a_circle_inside_a_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, detector: str, kept: bool) -> None:
    from importlinter.cli import lint_imports

    _package(tmp_path, {
        "acyc/__init__.py": "",
        "acyc/stack/__init__.py": "",
        "acyc/stack/walker.py": _WALKER,
        "acyc/stack/calls.py": detector,
        "acyc/stack/shapes.py": _SHAPES,
        "acyc/other/__init__.py": "",
        "acyc/other/a.py": "from acyc.other import b\n",
        "acyc/other/b.py": "X = 1\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    contract = _acyclic()
    ancestors = [a.replace("orbitkb.analysis", "acyc") for a in contract["ancestors"]]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importlinter]\nroot_packages = ["acyc"]\n\n[[tool.importlinter.contracts]]\n'
        f'name = "acyclic"\ntype = {json.dumps(contract["type"])}\nancestors = {json.dumps(ancestors)}\n')
    monkeypatch.chdir(tmp_path)
    assert (lint_imports(config_filename=str(tmp_path / "pyproject.toml"), no_cache=True, no_logo=True) == 0) is kept
