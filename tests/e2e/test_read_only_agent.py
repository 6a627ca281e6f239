"""A read-only agent over stdio (issue 15): the real MCP server on an SQLite file it cannot write
(a read-only mount) answers every question, find_change_surface included, and says in one line
that it recorded nothing — where it used to fail to open the database at all."""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
from pathlib import Path

import mcp
import pytest

from .conftest import ORBITKB

SERVER = str(Path(sys.executable).parent / "orbitkb-mcp")


def test_an_agent_on_a_read_only_mount_is_served(tmp_path: Path) -> None:
    repo = tmp_path / "repo" / "refunds"
    repo.mkdir(parents=True)
    (repo / "main.py").write_text("from fastapi import FastAPI\napp = FastAPI()\n\n\n"
                                  "@app.post('/refunds')\ndef refund_card_payment():\n    return {}\n")
    (repo / "requirements.txt").write_text("fastapi\n")
    folder = tmp_path / "kb"
    folder.mkdir()
    db = folder / "kb.db"
    env = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}
    subprocess.run([ORBITKB, "index", str(repo.parent), "--db", str(db)], check=True, capture_output=True, env=env)
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount --bind -o ro {folder} {folder} && ! touch {folder}/t"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a read-only folder here (needs unshare and mount)")
    before = db.read_bytes()
    script = f"mount --bind -o ro {folder} {folder} && exec {shlex.join([SERVER, '--db', str(db)])}"
    params = mcp.StdioServerParameters(command="unshare", args=["-m", "sh", "-c", script], env=env)

    async def go() -> tuple[dict, dict, dict]:
        async with mcp.Client(params) as client:
            surface = await client.call_tool("find_change_surface", {"task": "refund a card payment"})
            described = await client.call_tool("describe_service", {"service": "refunds"})
            feedback = await client.call_tool("record_change_surface_feedback",
                                              {"run_id": 1, "service": "refunds", "outcome": "confirmed"})
            for result in (surface, described):
                assert not result.is_error, result.content[0].text
            return surface.structured_content, described.structured_content, feedback

    surface, described, feedback = asyncio.run(go())
    assert surface["run_id"] is None and "read-only" in surface["note"]
    assert [p["service"] for p in surface["primary"]] == ["refunds"] and described["name"] == "refunds"
    assert feedback.is_error and "no change-surface run 1" in feedback.content[0].text  # nothing was recorded
    assert db.read_bytes() == before


def test_analyze_on_a_read_only_mount_answers_and_says_it_recorded_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "repo" / "ledger"
    repo.mkdir(parents=True)
    (repo / "main.py").write_text("from flask import Flask\napp = Flask(__name__)\n\n\n"
                                  "@app.route('/entries', methods=['POST'])\ndef post_ledger_entry():\n    return ''\n")
    (repo / "requirements.txt").write_text("flask\n")
    folder = tmp_path / "kb"
    folder.mkdir()
    db = folder / "kb.db"
    env = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}
    subprocess.run([ORBITKB, "index", str(repo.parent), "--db", str(db)], check=True, capture_output=True, env=env)
    script = (f"mount --bind -o ro {folder} {folder} && "
              + shlex.join([ORBITKB, "analyze", "post a ledger entry", "--db", str(db)]))
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, env=env)
    if "mount" in proc.stderr and proc.returncode != 0:
        pytest.skip("cannot mount a read-only folder here (needs unshare and mount)")
    assert proc.returncode == 0, proc.stderr
    assert "run not recorded — retrieval" in proc.stdout and "ledger" in proc.stdout
    assert "note: run not recorded: the knowledge base is read-only here" in proc.stdout
