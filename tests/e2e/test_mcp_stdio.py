"""The real MCP server process over stdio: the SDK's client drives every tool, concurrently, and an
independent client (the official MCP inspector CLI, from npm) lists and calls tools."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import mcp
import pytest

from .conftest import ROOT, Cli

SERVER = str(Path(sys.executable).parent / "orbitkb-mcp")
INSPECTOR = ROOT / "tools" / "mcp-inspector" / "node_modules" / ".bin" / "mcp-inspector"

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_repositories", {}),
    ("list_services", {}),
    ("describe_service", {"service": "orders", "limit": 2}),
    ("list_apis", {"service": "orders", "offset": 2, "limit": 3}),
    ("describe_api", {"service": "payments", "method": "POST", "path": "/api/payments"}),
    ("describe_persistence", {"service": "orders"}),
    ("describe_messages", {"service": "payments"}),
    ("search", {"query": "refund card"}),
    ("get_relationships", {"service": "payments", "direction": "both"}),
    ("trace_flow", {"source": "cart", "target": "payments"}),
    ("find_architecture_smells", {}),
    ("find_change_surface", {"task": "Refund a cancelled order's card payment"}),
    ("find_provenance", {"file": "payments/src/payments/payments.controller.ts", "line": 14}),
    ("refresh", {"repository": "shopfront"}),
]


def params(db: Path, *extra: str) -> mcp.StdioServerParameters:
    return mcp.StdioServerParameters(command=SERVER, args=["--db", str(db), "--backend", "offline", *extra],
                                     env={**os.environ, "ORBITKB_EMBEDDER": "off"})


def test_every_tool_over_stdio(indexed: Cli) -> None:
    async def go() -> dict[str, Any]:
        async with mcp.Client(params(indexed.db)) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert len(names) == 17
            out = {}
            for name, args in CALLS:
                res = await client.call_tool(name, args)
                assert not res.is_error, (name, res.content[0].text)
                assert json.loads(res.content[0].text) == res.structured_content
                out[name] = res.structured_content
            surface = out["find_change_surface"]
            fb = await client.call_tool("record_change_surface_feedback",
                                        {"run_id": surface["run_id"], "service": "payments", "outcome": "confirmed"})
            assert not fb.is_error
            ver = await client.call_tool("verify_change_surface",
                                         {"run_id": surface["run_id"], "repository": "shopfront", "since_commit": "HEAD"})
            # the example folder lives inside this repository's git checkout: verification runs for real
            assert not ver.is_error or "not" in ver.content[0].text
            return out

    out = asyncio.run(go())
    assert out["describe_service"]["pagination"]["calls"]["truncated"] in (True, False)
    assert out["list_apis"]["offset"] == 2 and len(out["list_apis"]["apis"]) <= 3
    assert out["describe_api"]["handler"] == "PaymentsController.authorize"
    assert out["trace_flow"]["reachable"] is True
    assert out["find_provenance"]["service"] == "payments"
    assert out["refresh"]["refreshed"][0]["files_parsed"] == 0


def test_concurrent_calls_and_errors_keep_the_server_serving(indexed: Cli) -> None:
    async def go() -> None:
        async with mcp.Client(params(indexed.db)) as client:
            calls = [client.call_tool("describe_service", {"service": s})
                     for s in ("orders", "payments", "cart", "catalog", "inventory", "shipping")]
            calls += [client.call_tool("search", {"query": q}) for q in ("' OR 1=1 --", "NEAR(a b)", "\u0000x")]
            results = await asyncio.gather(*calls)
            assert all(not r.is_error for r in results[:6])
            bad = await client.call_tool("describe_service", {"service": "orders", "limit": 0})
            assert bad.is_error and "limit" in bad.content[0].text
            unknown = await client.call_tool("describe_service", {"service": "paymnt"})
            assert unknown.is_error and "payments" in unknown.content[0].text
            traversal = await client.call_tool("find_provenance", {"file": "../../../etc/passwd", "line": 1})
            assert traversal.is_error and "leaves the repository" in traversal.content[0].text
            assert not (await client.call_tool("list_services", {})).is_error

    asyncio.run(go())


def test_core_tool_set_is_small(indexed: Cli) -> None:
    async def go() -> list[str]:
        async with mcp.Client(params(indexed.db, "--tools", "core")) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert sorted(asyncio.run(go())) == sorted(["list_services", "describe_service", "describe_api", "search",
                                                "find_change_surface", "get_relationships", "find_provenance"])


def test_nothing_but_protocol_on_stdout(tmp_path: Path) -> None:
    proc = subprocess.run([SERVER, "--db", str(tmp_path / "kb.db"), "--backend", "offline"], input="",
                          capture_output=True, text=True, timeout=60, env={**os.environ, "ORBITKB_EMBEDDER": "off"})
    assert proc.stdout == ""


@pytest.mark.skipif(not INSPECTOR.exists() or shutil.which("node") is None,
                    reason="the MCP inspector is installed by .ci/run (npm)")
def test_independent_client_lists_and_calls_tools(indexed: Cli) -> None:
    base = [str(INSPECTOR), "--cli", SERVER, "--db", str(indexed.db), "--backend", "offline"]
    env = {**os.environ, "ORBITKB_EMBEDDER": "off"}
    listed = subprocess.run([*base, "--method", "tools/list"], capture_output=True, text=True, timeout=120, env=env)
    assert listed.returncode == 0, listed.stderr
    assert len(json.loads(listed.stdout)["tools"]) == 17
    called = subprocess.run([*base, "--method", "tools/call", "--tool-name", "describe_service",
                             "--tool-arg", "service=payments"], capture_output=True, text=True, timeout=120, env=env)
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["structuredContent"]["name"] == "payments"
