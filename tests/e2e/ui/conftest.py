"""Browser tests of `orbitkb ui`: the real command serving an indexed database, driven through
Debian's Chromium by Playwright (no browser download). In CI (env CI set) a missing browser
fails the tests; locally they skip with one line saying why."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import ORBITKB, ROOT

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: screenshots kept as CI artifacts (README: "orbitkb ui")
SCREENSHOTS = Path(os.environ.get("ORBITKB_UI_SCREENSHOTS", ROOT / "test-artifacts" / "ui"))


def chromium_path() -> str | None:
    for candidate in (os.environ.get("ORBITKB_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


@pytest.fixture(scope="package")
def chromium() -> Iterator[Any]:
    """One browser for this folder's tests, closed when they are done: Playwright's sync API keeps
    an event loop running while it lives, which would break ``asyncio.run`` in later test folders
    (so pytest-playwright's session-wide fixtures are not used)."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        reason = "no Chromium for the UI tests (apt-get install chromium, or set ORBITKB_CHROMIUM)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1440, "height": 900})
    yield context.new_page()
    context.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class UiServer:
    def __init__(self, db: Path, cwd: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        env = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline", **(env or {})}
        self.proc = subprocess.Popen([ORBITKB, "ui", "--db", str(db), "--port", str(self.port), *extra],
                                     cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise AssertionError(f"orbitkb ui did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
            time.sleep(0.2)

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.stderr.read() if self.proc.stderr else ""


@pytest.fixture(scope="module")
def shop_ui(indexed) -> Iterator[UiServer]:
    server = UiServer(indexed.db, indexed.cwd)
    yield server
    server.stop()


def shot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path
