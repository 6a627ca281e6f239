"""The orbitkb-ui wheel carries its page, modules and the vendored graph library with its licence
(it works offline, with no CDN); the render benchmark runs end to end on a tiny system."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT

from .conftest import chromium_path, free_port

needs_uv = pytest.mark.skipif(shutil.which("uv") is None, reason="uv is required to build wheels")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(["uv", "build", "--all-packages", "--wheel", "-o", str(out), "-q"], cwd=ROOT, check=True)
    return out


def venv(tmp: Path, requirement: str, dist: Path) -> Path:
    subprocess.run(["uv", "venv", "-q", "-p", sys.executable, str(tmp / "venv")], check=True)
    subprocess.run(["uv", "pip", "install", "-q", "--python", str(tmp / "venv" / "bin" / "python"), "--find-links",
                    str(dist), requirement], check=True, cwd=tmp)
    return tmp / "venv" / "bin"


@needs_uv
def test_the_wheel_ships_every_asset(dist: Path) -> None:
    [wheel] = dist.glob("orbitkb_ui-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(next(n for n in names if n.endswith("METADATA"))).decode()
    static = {n.removeprefix("orbitkb/ui/static/") for n in names
              if n.startswith("orbitkb/ui/static/") and not n.endswith("/")}
    shipped = {p.relative_to(ROOT / "packages/orbitkb-ui/src/orbitkb/ui/static").as_posix()
               for p in (ROOT / "packages/orbitkb-ui/src/orbitkb/ui/static").rglob("*") if p.is_file()}
    assert static == shipped
    assert {"index.html", "app.js", "vendor/cytoscape.esm.min.js", "vendor/cytoscape.LICENSE.txt"} <= static
    assert "orbitkb/__init__.py" not in names
    assert any(line.startswith("Requires-Dist: orbitkb-bootstrap") for line in meta.splitlines())
    with zipfile.ZipFile(next(dist.glob("orbitkb_all-*.whl"))) as z:
        assert "orbitkb-ui" in z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()


@needs_uv
@pytest.mark.slow
def test_the_ui_alone_serves_its_page_offline(dist: Path, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path, "orbitkb-ui", dist)
    assert not (bin_dir / "orbitkb").exists() and not (bin_dir / "orbitkb-mcp").exists()
    port = free_port()
    proc = subprocess.Popen([str(bin_dir / "orbitkb-ui"), "--db", str(tmp_path / "kb.db"), "--port", str(port)],
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "ORBITKB_EMBEDDER": "off"})
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/vendor/cytoscape.esm.min.js") as r:
                    assert "script-src 'self'" in r.headers["content-security-policy"]
                    assert len(r.read()) > 100_000
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/map") as r:
                    assert json.loads(r.read())["empty"] is True  # an empty database: guidance
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
                time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(10)


@needs_uv
@pytest.mark.slow
def test_the_cli_without_the_ui_says_what_to_install(dist: Path, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path, "orbitkb-cli", dist)
    res = subprocess.run([str(bin_dir / "orbitkb"), "ui", "--db", str(tmp_path / "x.db")], capture_output=True,
                         text=True)
    assert res.returncode != 0 and "pip install orbitkb-ui" in res.stderr


@pytest.mark.slow
def test_render_benchmark_runs_on_a_tiny_system(tmp_path: Path) -> None:
    if chromium_path() is None:
        pytest.skip("no Chromium")
    out = tmp_path / "ui.json"
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ui_render.py"), "--services", "8", "--files",
                           "120", "--seed", "3", "--runs", "1", "--out", str(out)], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert proc.returncode in (0, 1), proc.stderr  # 1: over budget on a loaded machine, still a report
    report = json.loads(out.read_text())
    assert report["nodes"] > 8 and report["median"]["first_render_ms"] > 0
    assert report["server_rss_mib"]["started"]
    assert report["median"]["edge_ms"] > 0 and report["page_js_heap_mib"] > 0  # an edge's evidence, on demand
