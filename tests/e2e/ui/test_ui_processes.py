"""`orbitkb ui` beside other processes: an index made by another `orbitkb` process is on the next
map without a restart, `--read-only` writes nothing to a database it shares, and `--open` hands
the page to the browser $BROWSER names once the server answers."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import UiServer

pytestmark = pytest.mark.slow


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post_json(server: UiServer, path: str, body: Any) -> tuple[int, Any]:
    page = urllib.request.urlopen(server.url, timeout=10).read().decode()
    token = re.search(r'name="orbitkb-token" content="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    request = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json", "x-orbitkb-token": token})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def small_service(root: Path) -> Path:
    """A one-service repository in our own words: a FastAPI ledger with one route."""
    service = root / "ledger"
    service.mkdir(parents=True)
    (service / "requirements.txt").write_text("fastapi\nuvicorn\n")
    (service / "Dockerfile").write_text('FROM python:3.12-slim\nCOPY . /app\nCMD ["uvicorn", "main:app"]\n')
    (service / "main.py").write_text('from fastapi import FastAPI\n\napp = FastAPI()\n\n\n'
                                     '@app.get("/entries")\ndef entries():\n    return []\n')
    return root


def test_an_index_made_by_another_process_is_on_the_next_map(cli, example_repo, tmp_path: Path) -> None:
    cli.run("index", str(example_repo), "--repository-name", "shop")
    server = UiServer(cli.db, cli.cwd)
    try:
        before = get_json(server.url + "api/map")
        assert {r["name"] for r in before["repositories"]} == {"shop"}
        assert get_json(server.url + "api/map") == before
        cli.run("index", str(small_service(tmp_path / "books")), "--repository-name", "books")
        after = get_json(server.url + "api/map")
        assert {r["name"] for r in after["repositories"]} == {"shop", "books"}
        assert [n["kind"] for n in after["nodes"] if n["repository"] == "books"] == ["service"]
    finally:
        server.stop()


def test_read_only_answers_but_records_nothing_in_the_database(cli, example_repo) -> None:
    cli.run("index", str(example_repo), "--repository-name", "shop")
    mtime = cli.db.stat().st_mtime_ns
    server = UiServer(cli.db, cli.cwd, "--read-only")
    try:
        status, surface = post_json(server, "/api/surface", {"task": "Let customers pay with Pix at checkout"})
        assert status == 200 and surface["run_id"] is None and surface["primary"]
        status, refused = post_json(server, "/api/feedback", {"run_id": 1, "service": "payments", "outcome": "confirmed"})
        assert status == 403 and "read-only" in refused["error"]
        assert get_json(server.url + "api/runs")["runs"] == []
    finally:
        err = server.stop()
    assert "read-only" in err
    wal = cli.db.with_name(cli.db.name + "-wal")
    assert cli.db.stat().st_mtime_ns == mtime and (not wal.exists() or wal.stat().st_size == 0)  # no page written
    reader = UiServer(cli.db, cli.cwd)  # and a read-write server over it finds no run either
    try:
        assert get_json(reader.url + "api/runs")["runs"] == []
    finally:
        reader.stop()


def test_read_only_page_says_so_and_offers_no_feedback(page, indexed) -> None:
    server = UiServer(indexed.db, indexed.cwd, "--read-only")
    try:
        page.goto(server.url)
        page.wait_for_selector("body[data-ready=map]", timeout=20_000)
        assert page.is_visible("#mode-note") and "read-only" in page.inner_text("#mode-note")
        page.get_by_role("link", name="Change surface").click()
        assert "read-only" in page.inner_text("#read-only-note")
        page.fill("#task", "Let customers pay with Pix at checkout")
        page.click("#analyze")
        page.wait_for_selector("ul[data-tier=primary] > li")
        assert page.locator(".feedback button").count() == 0
        page.wait_for_selector("#past-runs li")
        assert "no runs yet" in page.inner_text("#past-runs")
    finally:
        server.stop()


def test_a_read_write_page_shows_no_read_only_note(page, shop_ui) -> None:
    page.goto(shop_ui.url)
    page.wait_for_selector("body[data-ready=map]", timeout=20_000)
    assert not page.is_visible("#mode-note")


def test_open_hands_the_served_page_to_the_browser(indexed, tmp_path: Path) -> None:
    seen = tmp_path / "opened.json"
    browser = tmp_path / "fake-browser"
    browser.write_text(f"""#!{sys.executable}
import json, sys, urllib.request
url = sys.argv[1]
with urllib.request.urlopen(url, timeout=10) as r:
    page = r.read().decode()
open({str(seen)!r}, "w").write(json.dumps({{"url": url, "status": r.status, "token": "orbitkb-token" in page}}))
""")
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    server = UiServer(indexed.db, indexed.cwd, "--open", env={"BROWSER": str(browser), "DISPLAY": "", "WAYLAND_DISPLAY": ""})
    try:
        deadline = time.monotonic() + 30
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert json.loads(seen.read_text()) == {"url": server.url, "status": 200, "token": True}
    finally:
        server.stop()


def test_without_open_no_browser_is_started(indexed, tmp_path: Path) -> None:
    seen = tmp_path / "opened"
    browser = tmp_path / "fake-browser"
    browser.write_text(f"#!/bin/sh\ntouch {seen}\n")
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    server = UiServer(indexed.db, indexed.cwd, env={"BROWSER": str(browser)})
    try:
        urllib.request.urlopen(server.url, timeout=10).read()
        time.sleep(1)
        assert not seen.exists()
    finally:
        server.stop()
    assert os.environ.get("BROWSER") != str(browser)
