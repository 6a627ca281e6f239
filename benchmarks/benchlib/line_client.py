"""A lean MCP client over stdio for latency benchmarks: the same few microseconds of client work for
every server, so that what is timed is the server.

The SDK's client does work of its own inside every timed call, and more of it for some servers than
for others: it validates the whole result with pydantic, structured content included (an answer
that carries both a structured and a text copy is parsed twice), and validates structured content
against the tool's outputSchema — only for a server that publishes one. Measured on the 40-service
system (session 16): 1.2–1.7 ms of client CPU a call against our server, 0.75–0.82 ms against the
reference's, all of it inside the wall time charged to the server. This client writes each request
as one JSON line, reads lines until the answer carrying its id (one ``json.loads`` of it), and
answers a request from the server with "method not found" so that nothing waits on it. It speaks
what the SDK's client speaks (``server/discover``, then each request with the protocol version,
client info and capabilities in ``_meta``), so both servers serve it on the path they serve the
SDK's client on; a server that refuses ``server/discover`` gets the ``initialize`` handshake.

    async with LineClient(StdioServerParameters(...)) as client:
        tools = (await client.list_tools()).tools     # .name, .input_schema
        answer = await client.call_tool(name, args)   # .content[i].text, .is_error, .structured_content
"""

from __future__ import annotations

import json
import os
import subprocess
from types import SimpleNamespace
from typing import Any

PROTOCOL_VERSION = "2026-07-28"
LEGACY_VERSION = "2025-06-18"
CLIENT_INFO = {"name": "orbitkb-bench", "version": "0"}
META = {"io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        "io.modelcontextprotocol/clientCapabilities": {}}


class ServerError(RuntimeError):
    """The server stopped answering, or answered a request with a JSON-RPC error."""


class Refused(ServerError):
    """A JSON-RPC error answer (a tool's own error is a result with ``isError``, not this)."""


class ToolAnswer:
    """A ``tools/call`` result as the SDK's client shows it (``content``, ``is_error``,
    ``structured_content``), taken from the answer's JSON as it came, without validating it."""

    def __init__(self, result: dict[str, Any]) -> None:
        self.raw = result
        self.content = [SimpleNamespace(**block) for block in result.get("content") or []]
        self.is_error = bool(result.get("isError"))
        self.structured_content = result.get("structuredContent")


class LineClient:
    """``LineClient(params)``: params has ``command``, ``args`` and ``env`` (an SDK
    ``StdioServerParameters`` does); ``read_timeout_seconds`` is accepted and ignored (a benchmark
    that hangs is stopped by its runner)."""

    def __init__(self, params: Any, read_timeout_seconds: float | None = None) -> None:
        self._params = params
        self._proc: subprocess.Popen[bytes] | None = None
        self._next_id = 0
        self._meta: dict[str, Any] | None = META

    async def __aenter__(self) -> LineClient:
        env = self._params.env if self._params.env is not None else dict(os.environ)
        # buffered: an unbuffered pipe's readline reads one byte per system call
        self._proc = subprocess.Popen([self._params.command, *self._params.args], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, env=env)
        try:
            try:
                self.request("server/discover", {})
            except Refused:  # a server of the handshake era: initialize, then say so
                self._meta = None
                self.request("initialize", {"protocolVersion": LEGACY_VERSION, "capabilities": {},
                                            "clientInfo": CLIENT_INFO})
                self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        proc = self._proc
        if proc is None:
            return
        assert proc.stdin is not None
        try:
            proc.stdin.close()
        except OSError:  # the server is gone already
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def _send(self, message: dict[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        self._proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        self._proc.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one request and return its result; a JSON-RPC error raises ``Refused``."""
        assert self._proc is not None and self._proc.stdout is not None
        self._next_id += 1
        rid = self._next_id
        if self._meta is not None:
            params = {**params, "_meta": self._meta}
        self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            line = self._proc.stdout.readline()
            if not line:
                raise ServerError(f"the server closed its output while {method} (id {rid}) waited")
            message = json.loads(line)
            if "method" in message:  # the server asks or notifies: nothing here waits for it
                if "id" in message:
                    self._send({"jsonrpc": "2.0", "id": message["id"],
                                "error": {"code": -32601, "message": "Method not found"}})
                continue
            if message.get("id") != rid:
                continue
            if "error" in message:
                raise Refused(f"{method}: {message['error'].get('message')}")
            return dict(message.get("result") or {})

    async def list_tools(self) -> SimpleNamespace:
        tools = self.request("tools/list", {}).get("tools") or []
        return SimpleNamespace(tools=[SimpleNamespace(name=t["name"], input_schema=t.get("inputSchema"))
                                      for t in tools])

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolAnswer:
        return ToolAnswer(self.request("tools/call", {"name": name, "arguments": arguments}))
