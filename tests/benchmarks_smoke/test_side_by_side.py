"""benchmarks/side_by_side.py without the reference system: it says how to install it and exits 0
(nothing in the suite needs the reference), never mistakes our own console script for it, and
hands each server the arguments in its own names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "side_by_side.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "ORBITKB_REFERENCE"}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          cwd=ROOT, env=env)


@pytest.mark.parametrize("reference", [None, "/nowhere/bin/orbitkb", str(Path(sys.executable).parent / "orbitkb")])
def test_without_the_reference_it_skips_with_the_way_to_install_it(reference: str | None) -> None:
    proc = _run(*(["--reference", reference] if reference else []))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("skipped: the reference orbitkb is not installed")
    assert "pip install orbitkb==2.87" in proc.stdout


def test_each_server_gets_the_arguments_in_its_own_names() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import side_by_side
    finally:
        sys.path.remove(str(SCRIPT.parent))
    ends = {"source": "cart", "target": "payments"}
    assert side_by_side.arguments_for("trace_flow", ends, {"source", "target", "max_hops"}, "ours") == ends
    assert side_by_side.arguments_for("trace_flow", ends, {"from_service", "to_service"}, "reference") == {
        "from_service": "cart", "to_service": "payments"}
    # a parameter the server does not declare is left out rather than sent and refused
    assert side_by_side.arguments_for("search", {"query": "refund", "limit": 20}, {"query", "repository"},
                                      "reference") == {"query": "refund"}
