"""Each distribution builds, declares its dependencies completely and works installed alone in a
clean virtual environment (the domain with attrs+cattrs only; the MCP server without the CLI; the
CLI without the MCP server)."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(p.name for p in (ROOT / "packages").iterdir() if (p / "pyproject.toml").exists())

pytestmark = pytest.mark.skipif(shutil.which("uv") is None, reason="uv is required to build wheels")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(["uv", "build", "--all-packages", "--wheel", "-o", str(out), "-q"], cwd=ROOT, check=True)
    return out


def venv(tmp: Path, *requirements: str, dist: Path) -> Path:
    env_dir = tmp / "venv"
    subprocess.run(["uv", "venv", "-q", "-p", sys.executable, str(env_dir)], check=True)
    subprocess.run(["uv", "pip", "install", "-q", "--python", str(env_dir / "bin" / "python"),
                    "--find-links", str(dist), *requirements], check=True, cwd=tmp)
    return env_dir / "bin"


def test_every_member_builds_a_wheel_with_bounded_workspace_deps(dist: Path) -> None:
    wheels = {w.name.split("-")[0].replace("_", "-") for w in dist.glob("*.whl")}
    assert wheels == set(PACKAGES)
    import zipfile

    for wheel in dist.glob("*.whl"):
        with zipfile.ZipFile(wheel) as z:
            names = z.namelist()
            assert "orbitkb/__init__.py" not in names, f"{wheel.name} would shadow the orbitkb namespace"
            meta = z.read(next(n for n in names if n.endswith("METADATA"))).decode()
        for line in meta.splitlines():
            if line.startswith("Requires-Dist: orbitkb-"):
                assert "<" in line and ">=" in line, f"{wheel.name}: unbounded {line}"
    domain = next(dist.glob("orbitkb_domain-*.whl"))
    with zipfile.ZipFile(domain) as z:
        assert "orbitkb/domain/vendors.json" in z.namelist()


def test_domain_alone_needs_only_attrs_and_cattrs(dist: Path, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path, "orbitkb-domain", dist=dist)
    code = ("import orbitkb.domain.usecases.change_surface, orbitkb.domain.fakes as f; "
            "import importlib.metadata as m; s=f.InMemoryKnowledgeStore(); print(sorted(d.metadata['Name'] "
            "for d in m.distributions()))")
    out = subprocess.run([str(bin_dir / "python"), "-c", code], check=True, capture_output=True, text=True).stdout
    installed = set(eval(out))  # noqa: S307 - our own printed list
    assert installed - {"orbitkb-domain", "attrs", "cattrs", "typing_extensions", "typing-extensions",
                        "exceptiongroup"} == set()


def test_mcp_alone_starts_and_lists_tools(dist: Path, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path, "orbitkb-mcp", dist=dist)
    assert not (bin_dir / "orbitkb").exists(), "the MCP distribution must not pull the CLI"
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=str(bin_dir / "orbitkb-mcp"),
                                   args=["--db", str(tmp_path / "kb.db"), "--backend", "offline"],
                                   env={**os.environ, "PATH": os.environ.get("PATH", "")})

    async def go() -> list[str]:
        async with Client(params) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert "find_change_surface" in asyncio.run(go())


def test_cli_alone_answers_help(dist: Path, tmp_path: Path) -> None:
    bin_dir = venv(tmp_path, "orbitkb-cli", dist=dist)
    res = subprocess.run([str(bin_dir / "orbitkb"), "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and "index" in res.stdout
    res = subprocess.run([str(bin_dir / "orbitkb"), "serve", "--db", str(tmp_path / "x.db")],
                         capture_output=True, text=True)
    assert res.returncode != 0 and "pip install orbitkb-mcp" in res.stderr


def test_the_domain_readme_script_runs_with_the_domain_alone(dist: Path, tmp_path: Path) -> None:
    import re

    bin_dir = venv(tmp_path, "orbitkb-domain", dist=dist)
    readme = (ROOT / "packages" / "orbitkb-domain" / "README.md").read_text()
    (script,) = re.findall(r"```python\n(.*?)```", readme, re.S)
    done = subprocess.run([str(bin_dir / "python"), "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "['payments']" in done.stdout


def test_install_from_a_clone_works_as_the_readme_says(tmp_path: Path) -> None:
    """The README's commands, run as written: a wheelhouse of every distribution, then plain pip
    into a fresh venv. (`pip install ./packages/orbitkb-cli` alone cannot work: its sibling
    distributions are on no index.)"""
    import re

    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```bash\n(uv build --all-packages[^\n]*)\n(pip install --find-links[^\n]*)\n", readme)
    assert block, "the README's install-from-a-clone block"
    build, install = (line.split("#")[0].split() for line in block.groups())
    wheelhouse = tmp_path / build[build.index("-o") + 1]
    subprocess.run([*build[:-1], str(wheelhouse), "-q"], cwd=ROOT, check=True)
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "venv")], check=True)
    pip = tmp_path / "venv" / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", *install[2:]], cwd=tmp_path, check=True)
    orbitkb = tmp_path / "venv" / "bin" / "orbitkb"
    svc = tmp_path / "repo" / "orders"
    svc.mkdir(parents=True)
    (svc / "pyproject.toml").write_text('[project]\nname = "orders"\ndependencies = ["fastapi"]\n')
    (svc / "main.py").write_text("from fastapi import FastAPI\napp = FastAPI()\n\n@app.get('/orders')\n"
                                 "def orders():\n    return []\n")
    env = {**os.environ, "ORBITKB_BACKEND": "offline", "ORBITKB_EMBEDDER": "off"}
    done = subprocess.run([str(orbitkb), "index", str(svc.parent), "--db", str(tmp_path / "kb.db")],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "orders" in done.stdout, done.stderr
