"""Load once, reuse — and never serve a stale snapshot: a running MCP server keeps its SystemModel
between calls, and sees on its next call what another process indexed, updated or removed
(two processes on one real SQLite database)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import mcp

from .conftest import Cli
from .test_mcp_stdio import params


def _write_service(root: Path, name: str, route: str) -> None:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "requirements.txt").write_text("fastapi\nuvicorn\n")
    (folder / "main.py").write_text(
        "from fastapi import FastAPI\n\napp = FastAPI()\n\n\n"
        f"@app.get(\"{route}\")\ndef answer():\n    return {{}}\n"
    )


def test_a_running_server_sees_what_another_process_indexed_updated_and_removed(cli: Cli, tmp_path: Path) -> None:
    first = tmp_path / "harbour"
    _write_service(first, "berths", "/berths")
    cli.run("index", str(first), "--repository-name", "harbour")
    second = tmp_path / "fleet"
    _write_service(second, "vessels", "/vessels")

    async def names(client: Any) -> list[str]:
        res = await client.call_tool("list_services", {})
        assert not res.is_error, res.content[0].text
        return sorted(s["name"] for s in res.structured_content["services"])

    async def apis(client: Any, service: str) -> list[str]:
        res = await client.call_tool("list_apis", {"service": service})
        assert not res.is_error, res.content[0].text
        return sorted(a["path"] for a in res.structured_content["apis"])

    async def go() -> None:
        async with mcp.Client(params(cli.db)) as client:
            assert await names(client) == ["berths"]
            assert await names(client) == ["berths"]  # the kept model answers again
            cli.run("index", str(second), "--repository-name", "fleet")  # another process writes
            assert await names(client) == ["berths", "vessels"]
            assert await apis(client, "vessels") == ["/vessels"]
            _write_service(second, "vessels", "/vessels/{vessel_id}")
            cli.run("update", "fleet")
            assert await apis(client, "vessels") == ["/vessels/{vessel_id}"]
            rel = await client.call_tool("get_relationships", {"service": "vessels"})
            assert not rel.is_error
            cli.run("remove", "fleet")
            assert await names(client) == ["berths"]
            gone = await client.call_tool("describe_service", {"service": "vessels"})
            assert gone.is_error

    asyncio.run(go())


def test_a_running_server_lists_past_tasks_it_recorded_and_another_process_recorded(cli: Cli, tmp_path: Path) -> None:
    """The past runs a server keeps between calls are never stale: its own run and one recorded by
    `orbitkb analyze` in another process both come back as similar past tasks on the next call."""
    root = tmp_path / "harbour"
    _write_service(root, "berths", "/berths")
    cli.run("index", str(root), "--repository-name", "harbour")

    async def similar(client: Any, task: str) -> list[str]:
        res = await client.call_tool("find_change_surface", {"task": task})
        assert not res.is_error, res.content[0].text
        return [p["task"] for p in res.structured_content["similar_past_tasks"]]

    async def go() -> None:
        async with mcp.Client(params(cli.db)) as client:
            assert await similar(client, "assign a berth to an arriving vessel") == []
            assert await similar(client, "assign a berth to a departing vessel") == [
                "assign a berth to an arriving vessel"]
            cli.run("analyze", "assign a berth to a visiting vessel")  # another process records a run
            found = await similar(client, "assign a berth to a visiting vessel today")
            assert found[0] == "assign a berth to a visiting vessel"
            assert set(found[1:]) == {"assign a berth to an arriving vessel", "assign a berth to a departing vessel"}

    asyncio.run(go())
