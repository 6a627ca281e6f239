"""Every distribution's README shows its own use, and the Python in it runs: the domain's script
(a use case over the in-memory fakes) and each adapter's snippet, offline, never a real LLM CLI."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PACKAGES = sorted(p for p in (ROOT / "packages").iterdir() if (p / "pyproject.toml").exists())
PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def blocks(package: Path) -> list[str]:
    return PYTHON_BLOCK.findall((package / "README.md").read_text())


@pytest.mark.parametrize("package", PACKAGES, ids=[p.name for p in PACKAGES])
def test_each_readme_names_the_working_install_and_shows_a_use(package: Path) -> None:
    text = (package / "README.md").read_text()
    assert text.startswith(f"# {package.name}\n")
    assert "uv build --all-packages --wheel -o wheelhouse" in text
    assert f"pip install --find-links wheelhouse {package.name}\n" in text
    assert "```python" in text or "```bash" in text or "```json" in text


@pytest.mark.parametrize("package", [p for p in PACKAGES if blocks(p)],
                         ids=[p.name for p in PACKAGES if blocks(p)])
def test_the_python_in_each_readme_runs(package: Path, tmp_path: Path) -> None:
    env = {**os.environ, "ORBITKB_BACKEND": "offline", "ORBITKB_EMBEDDER": "off",
           "HOME": str(tmp_path), "ORBITKB_DB": str(tmp_path / "kb.db")}
    for code in blocks(package):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                              cwd=ROOT, timeout=120)
        assert done.returncode == 0, done.stderr
        for line in code.splitlines():  # a `# expected` comment after a print is what it prints
            m = re.match(r"print\(.*\)\s+# (.+)$", line)
            if m:
                assert m.group(1) in done.stdout.splitlines(), (m.group(1), done.stdout)


def test_the_domain_readme_runs_a_use_case_on_the_fakes() -> None:
    (script,) = blocks(ROOT / "packages" / "orbitkb-domain")
    assert "orbitkb.domain.fakes" in script and "usecases" in script
    assert not re.search(r"^(from|import) orbitkb\.(?!domain)", script, re.M), "the domain script needs no adapter"
    assert len(script.splitlines()) <= 30
