"""`orbitkb ui --host`: another interface is served only when asked, with a warning first, and
answers requests addressed to it; loopback stays quiet."""

from __future__ import annotations

import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.e2e.conftest import ORBITKB

from .conftest import free_port


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], list[str]]:
    env = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}
    proc = subprocess.Popen([ORBITKB, "ui", "--db", str(tmp_path / "kb.db"), *args], stderr=subprocess.PIPE,
                            text=True, env=env)
    lines: list[str] = []
    assert proc.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line)
        if "serving" in line and "warning" not in line:
            return proc, lines
    proc.kill()
    raise AssertionError("".join(lines))


def get(url: str) -> int:
    for _ in range(50):
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return exc.code
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"nothing answers {url}")


@pytest.mark.parametrize("host,warned", [("127.0.0.2", True), ("127.0.0.1", False)])
def test_a_host_other_than_loopback_is_warned_about(tmp_path: Path, host: str, warned: bool) -> None:
    port = free_port()
    proc, lines = start(tmp_path, "--host", host, "--port", str(port))
    try:
        text = "".join(lines)
        assert ("warning: serving on 127.0.0.2" in text) is warned, text
        assert get(f"http://{host}:{port}/") == 200
    finally:
        proc.terminate()
        proc.wait(10)
