"""The real MCP server over stdio answers every malformed line with a JSON-RPC error and keeps
serving (issue 13 #12): a lone surrogate escape, arrays nested 500 deep, truncated JSON, a batch.
Its serverInfo names the package version (#14)."""

from __future__ import annotations

import json
import os
import select
import subprocess
from typing import Any

from .conftest import Cli
from .test_mcp_stdio import SERVER

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


class Wire:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc

    def ask(self, line: bytes, timeout: float = 20) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, f"no answer to {line[:80]!r}"
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer


def test_every_malformed_request_gets_an_error_and_the_server_stays_up(cli: Cli) -> None:
    proc = subprocess.Popen([SERVER, "--db", str(cli.db), "--backend", "offline"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "ORBITKB_EMBEDDER": "off"})
    wire = Wire(proc)
    try:
        assert "result" in wire.ask(json.dumps(INIT).encode())
        assert proc.stdin is not None
        proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        call = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search","arguments":{"query":%s}}}'
        cases = {
            "surrogate": (call % (2, b'"\\ud800"'), 2, -32700),
            "deep": (call % (3, b"[" * 500 + b"]" * 500), 3, -32700),
            "truncated": (b'{"jsonrpc":"2.0","id":4,"method":"tools/li', None, -32700),
            "batch": (b'[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","id":6,"method":"ping"}]',
                      None, -32600),
            "not a message": (b'{"jsonrpc":"2.0","id":7}', 7, -32600),
        }
        for name, (line, rid, code) in cases.items():
            answer = wire.ask(line)
            assert answer["id"] == rid and answer["error"]["code"] == code, (name, answer)
        assert "surrogate" in wire.ask(cases["surrogate"][0])["error"]["message"]
        assert wire.ask(b'{"jsonrpc":"2.0","id":99,"method":"ping"}') == {"jsonrpc": "2.0", "id": 99, "result": {}}
        tools = wire.ask(b'{"jsonrpc":"2.0","id":100,"method":"tools/list"}')
        assert len(tools["result"]["tools"]) >= 10
    finally:
        proc.kill()
        proc.wait()


def test_server_info_names_the_package_version(cli: Cli) -> None:
    from importlib.metadata import version

    proc = subprocess.Popen([SERVER, "--db", str(cli.db), "--backend", "offline"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "ORBITKB_EMBEDDER": "off"})
    try:
        info = Wire(proc).ask(json.dumps(INIT).encode())["result"]["serverInfo"]
        assert info["name"] == "orbitkb" and info["version"] == version("orbitkb-mcp") != ""
    finally:
        proc.kill()
        proc.wait()
