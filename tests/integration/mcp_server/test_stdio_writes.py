"""Answers go straight to the protocol's pipe (no worker thread per write and per flush), requests are
read from it on the event loop (no worker thread per line), and what a tool prints to stdout still
lands on stderr, never inside the protocol."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import anyio

from orbitkb.mcp.stdio import DirectLines

#: A server with one tool that prints to stdout (through Python and straight to fd 1), run by
#: run_stdio; it counts the hand-offs to worker threads and reports them on stderr at the end.
SERVER = r'''
import os, sys
import anyio, anyio.to_thread
from mcp.server.mcpserver import MCPServer
from orbitkb.mcp.stdio import run_stdio

hops = [0]
real = anyio.to_thread.run_sync
async def counted(*args, **kwargs):
    hops[0] += 1
    return await real(*args, **kwargs)
anyio.to_thread.run_sync = counted

server = MCPServer("probe")

@server.tool(name="noisy")
async def noisy(n: int) -> str:
    print("stray print", n)
    sys.stdout.flush()
    os.write(1, b"stray bytes\n")
    return f"answer {n}"

anyio.run(run_stdio, server)
print(f"HOPS={hops[0]}", file=sys.stderr)
'''


def _requests(calls: int) -> str:
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": "noisy", "arguments": {"n": i}}}
              for i in range(1, calls + 1)]
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_answers_are_written_without_a_worker_thread_and_prints_miss_the_wire() -> None:
    calls = 12
    proc = subprocess.run([sys.executable, "-c", SERVER], input=_requests(calls), capture_output=True, text=True,
                          timeout=120)
    answers = [json.loads(line) for line in proc.stdout.splitlines()]  # every stdout line is protocol
    texts = sorted(a["result"]["content"][0]["text"] for a in answers if a.get("id"))
    assert texts == sorted(f"answer {i}" for i in range(1, calls + 1))
    assert "stray print 1" in proc.stderr and "stray bytes" in proc.stderr
    hops = int(proc.stderr.rsplit("HOPS=", 1)[1].split()[0])
    # none per line read from the pipe (PipeLines), none per answer written or flushed
    assert hops == 0, proc.stderr[-2000:]


def test_direct_lines_write_and_flush_in_place() -> None:
    class Sink(io.StringIO):
        flushed = 0

        def flush(self) -> None:
            self.flushed += 1
            super().flush()

    sink = Sink()
    out = DirectLines(sink)

    async def go() -> None:
        await out.write('{"jsonrpc":"2.0"}\n')
        await out.flush()

    anyio.run(go)
    assert sink.getvalue() == '{"jsonrpc":"2.0"}\n' and sink.flushed == 1
