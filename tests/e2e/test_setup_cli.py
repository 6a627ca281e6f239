"""`orbitkb setup` in temporary folders with HOME overridden: MCP configuration for Claude Code and
Codex, the instructions block, the post-commit hook; --dry-run, idempotence, --undo, and a user's
own entries left alone."""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path

import pytest

from orbitkb.cli.exit import ExitStatus
from tests.e2e.conftest import ORBITKB, git


class Setup:
    def __init__(self, tmp: Path) -> None:
        self.home = tmp / "home"
        self.project = tmp / "project"
        self.home.mkdir()
        self.project.mkdir()
        self.env = {**os.environ, "HOME": str(self.home), "ORBITKB_DB": str(tmp / "kb.db"),
                    "ORBITKB_EMBEDDER": "off", "ORBITKB_BACKEND": "offline"}

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run([ORBITKB, "setup", *args], capture_output=True, text=True, cwd=self.project,
                              env=self.env, timeout=120)
        if check and proc.returncode != 0:
            raise AssertionError(f"setup {args} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
        return proc

    def snapshot(self) -> dict[str, str]:
        return {str(p.relative_to(p.parents[len(p.parents) - 1])): p.read_text()
                for root in (self.home, self.project) for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def s(tmp_path: Path) -> Setup:
    return Setup(tmp_path)


def test_project_setup_writes_both_clients_is_idempotent_and_undoes_cleanly(s: Setup) -> None:
    git(s.project, "init", "-q")
    (s.project / "CLAUDE.md").write_text("# My project\n\nUse tabs.\n")
    empty = s.snapshot()

    dry = s.run("--hook", "--dry-run").stdout
    assert "would create" in dry and ".mcp.json" in dry and "post-commit" in dry
    assert s.snapshot() == empty, "--dry-run writes nothing"

    s.run("--hook")
    mcp = json.loads((s.project / ".mcp.json").read_text())["mcpServers"]["orbitkb"]
    assert mcp["type"] == "stdio" and mcp["args"][:3] == ["serve", "--tools", "core"]
    assert os.path.isabs(mcp["command"]) and mcp["command"].endswith("orbitkb")
    codex = tomllib.loads((s.project / ".codex" / "config.toml").read_text())["mcp_servers"]["orbitkb"]
    assert codex["args"] == mcp["args"] and codex["command"] == mcp["command"]
    claude_md = (s.project / "CLAUDE.md").read_text()
    assert claude_md.startswith("# My project\n\nUse tabs.\n") and "find_change_surface" in claude_md
    assert "instead of" in (s.project / "AGENTS.md").read_text()
    hook = s.project / ".git" / "hooks" / "post-commit"
    assert os.access(hook, os.X_OK) and "update" in hook.read_text() and "&" in hook.read_text()
    subprocess.run([str(hook)], check=True, timeout=30, env=s.env)  # runs, backgrounds, returns at once

    written = s.snapshot()
    again = s.run("--hook").stdout
    assert s.snapshot() == written and "unchanged" in again and "create" not in again

    s.run("--undo")
    after = {k: v for k, v in s.snapshot().items() if not k.endswith("setup.json")}
    assert after == {k: v for k, v in empty.items()}, "undo leaves the project as it was"
    assert not hook.exists() and not (s.project / ".mcp.json").exists()


def test_user_scope_keeps_everything_else_in_the_users_files(s: Setup) -> None:
    claude = s.home / ".claude.json"
    claude.write_text(json.dumps({"numStartups": 7, "mcpServers": {"github": {"command": "gh-mcp"}}}))
    codex = s.home / ".codex" / "config.toml"
    codex.parent.mkdir()
    codex.write_text('model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n')

    s.run("--scope", "user", "--tools", "full")

    doc = json.loads(claude.read_text())
    assert doc["numStartups"] == 7 and doc["mcpServers"]["github"] == {"command": "gh-mcp"}
    assert doc["mcpServers"]["orbitkb"]["args"][:3] == ["serve", "--tools", "full"]
    toml = tomllib.loads(codex.read_text())
    assert toml["model"] == "o3" and toml["mcp_servers"]["docs"] == {"command": "docs-mcp"}
    assert "orbitkb" in toml["mcp_servers"]
    assert "list_blind_spots" in (s.home / ".claude" / "CLAUDE.md").read_text()

    s.run("--scope", "user", "--undo")
    assert json.loads(claude.read_text()) == {"numStartups": 7, "mcpServers": {"github": {"command": "gh-mcp"}}}
    assert codex.read_text() == 'model = "o3"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n'
    assert not (s.home / ".claude" / "CLAUDE.md").exists()


def test_a_users_own_orbitkb_entries_are_never_overwritten_nor_undone(s: Setup) -> None:
    mine = {"mcpServers": {"orbitkb": {"command": "/opt/orbitkb", "args": ["serve", "--db", "/data/kb.db"]}}}
    (s.project / ".mcp.json").write_text(json.dumps(mine))
    (s.project / ".codex").mkdir()
    (s.project / ".codex" / "config.toml").write_text('[mcp_servers.orbitkb]\ncommand = "/opt/orbitkb"\n')
    hook = s.project / ".git" / "hooks" / "post-commit"
    git(s.project, "init", "-q")
    hook.write_text("#!/bin/sh\necho my own hook\n")
    before = s.snapshot()

    out = s.run("--hook", "--no-instructions")
    assert out.stdout.count("kept your own entry") == 2 and "configured yourself" in out.stderr
    assert json.loads((s.project / ".mcp.json").read_text()) == mine
    assert (s.project / ".codex" / "config.toml").read_text() == '[mcp_servers.orbitkb]\ncommand = "/opt/orbitkb"\n'
    assert hook.read_text().startswith("#!/bin/sh\necho my own hook\n") and "orbitkb setup" in hook.read_text()

    s.run("--undo")
    after = {k: v for k, v in s.snapshot().items() if not k.endswith("setup.json")}
    assert after == before


def test_bad_inputs_are_clear_errors_that_change_nothing(s: Setup) -> None:
    (s.project / ".mcp.json").write_text("{ not json")
    proc = s.run(check=False)
    assert proc.returncode == ExitStatus.USAGE and "not valid JSON" in proc.stderr
    assert (s.project / ".mcp.json").read_text() == "{ not json"
    assert not (s.project / "CLAUDE.md").exists()
    (s.project / ".mcp.json").unlink()
    proc = s.run("--hook", check=False)
    assert proc.returncode == ExitStatus.USAGE and "not a git repository" in proc.stderr
    assert s.run("--project", str(s.project / "nope"), check=False).returncode == ExitStatus.USAGE
