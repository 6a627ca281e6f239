"""A read-only agent over stdio (issue 15): the real MCP server on an SQLite file it cannot write
(a read-only mount) answers every question, find_change_surface included, and says in one line
that it recorded nothing — where it used to fail to open the database at all."""

from __future__ import annotations

import asyncio
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import mcp
import pytest

from .conftest import ORBITKB

SERVER = str(Path(sys.executable).parent / "orbitkb-mcp")
ENV = {**os.environ, "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}


@dataclass(frozen=True)
class ReadOnlyKb:
    """A database of one indexed service (``refunds``) in a folder a command can see read-only."""

    folder: Path
    db: Path

    def mounted(self, command: list[str]) -> list[str]:
        """``command`` run where ``folder`` is bind-mounted read-only (a mount namespace of its own)."""
        script = f"mount --bind -o ro {self.folder} {self.folder} && exec {shlex.join(command)}"
        return ["unshare", "-m", "sh", "-c", script]


@pytest.fixture
def read_only_kb(tmp_path: Path) -> ReadOnlyKb:
    repo = tmp_path / "repo" / "refunds"
    repo.mkdir(parents=True)
    (repo / "main.py").write_text("from fastapi import FastAPI\napp = FastAPI()\n\n\n"
                                  "@app.post('/refunds')\ndef refund_card_payment():\n    return {}\n")
    (repo / "requirements.txt").write_text("fastapi\n")
    kb = ReadOnlyKb(tmp_path / "kb", tmp_path / "kb" / "kb.db")
    kb.folder.mkdir()
    subprocess.run([ORBITKB, "index", str(repo.parent), "--db", str(kb.db)], check=True, capture_output=True, env=ENV)
    probe = subprocess.run(kb.mounted(["sh", "-c", f"! touch {kb.folder}/t"]), capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot mount a read-only folder here (needs unshare and mount)")
    return kb


def test_an_agent_on_a_read_only_mount_is_served(read_only_kb: ReadOnlyKb) -> None:
    before = read_only_kb.db.read_bytes()
    command = read_only_kb.mounted([SERVER, "--db", str(read_only_kb.db)])
    params = mcp.StdioServerParameters(command=command[0], args=command[1:], env=ENV)

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
    assert read_only_kb.db.read_bytes() == before


def test_analyze_on_a_read_only_mount_answers_and_says_it_recorded_nothing(read_only_kb: ReadOnlyKb) -> None:
    before = read_only_kb.db.read_bytes()
    proc = subprocess.run(read_only_kb.mounted([ORBITKB, "analyze", "refund a card payment", "--db", str(read_only_kb.db)]),
                          capture_output=True, text=True, env=ENV)
    assert proc.returncode == 0, proc.stderr
    assert "run not recorded — retrieval" in proc.stdout and "refunds" in proc.stdout
    assert "note: run not recorded: the knowledge base is read-only here" in proc.stdout
    assert read_only_kb.db.read_bytes() == before
