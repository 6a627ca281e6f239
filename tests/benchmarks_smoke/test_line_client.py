"""benchlib/line_client.py, the lean client the latency benchmarks time servers with: it speaks what
the SDK's client speaks, falls back to the initialize handshake, skips what the server sends
unasked, answers the server's own requests, and reports answers as the SDK's client shows them."""

from __future__ import annotations

import asyncio
import json
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from benchlib.line_client import META, LineClient, Refused, ServerError  # noqa: E402

#: A toy stdio server in a few lines: it logs every line it reads to a file, notifies and asks the
#: client something before each tool answer, and refuses server/discover when told to.
TOY_SERVER = textwrap.dedent('''
    import json, sys
    log, modern = open(sys.argv[1], "a"), sys.argv[2] == "modern"
    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
    for line in sys.stdin:
        log.write(line); log.flush()
        msg = json.loads(line)
        if "id" not in msg or "method" not in msg:
            continue
        rid, method = msg["id"], msg["method"]
        if method == "server/discover" and not modern:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})
        elif method in ("server/discover", "initialize"):
            send({"jsonrpc": "2.0", "id": rid, "result": {}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": [
                {"name": "echo", "inputSchema": {"type": "object", "properties": {"word": {"type": "string"}}}}]}})
        elif method == "tools/call":
            send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}})
            send({"jsonrpc": "2.0", "id": "srv-1", "method": "roots/list"})
            send({"jsonrpc": "2.0", "id": 9999, "result": {"stray": True}})
            word = msg["params"]["arguments"].get("word")
            if word is None:
                send({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "no word"}],
                                                            "isError": True}})
            elif word == "boom":
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Invalid params"}})
            else:
                send({"jsonrpc": "2.0", "id": rid, "result": {
                    "content": [{"type": "text", "text": json.dumps({"word": word})}],
                    "structuredContent": {"word": word}}})
''')


def _params(tmp_path: Path, era: str) -> SimpleNamespace:
    script = tmp_path / "toy_server.py"
    script.write_text(TOY_SERVER)
    return SimpleNamespace(command=sys.executable, args=[str(script), str(tmp_path / "seen.jsonl"), era], env=None)


def _seen(tmp_path: Path) -> list[dict]:
    return [json.loads(line) for line in (tmp_path / "seen.jsonl").read_text().splitlines()]


async def _session(params: SimpleNamespace) -> tuple[list, object, object]:
    async with LineClient(params) as client:
        tools = (await client.list_tools()).tools
        ok = await client.call_tool("echo", {"word": "refund"})
        refused = await client.call_tool("echo", {})
        with pytest.raises(Refused, match="Invalid params"):
            await client.call_tool("echo", {"word": "boom"})
    return tools, ok, refused


@pytest.mark.parametrize("era", ["modern", "handshake"])
def test_answers_read_like_the_sdk_clients(tmp_path: Path, era: str) -> None:
    tools, ok, refused = asyncio.run(_session(_params(tmp_path, era)))
    assert [(t.name, t.input_schema["properties"]) for t in tools] == [("echo", {"word": {"type": "string"}})]
    assert json.loads(ok.content[0].text) == {"word": "refund"} and ok.structured_content == {"word": "refund"}
    assert not ok.is_error
    assert refused.is_error and refused.content[0].text == "no word" and refused.structured_content is None


def test_it_speaks_the_sdk_clients_protocol_first(tmp_path: Path) -> None:
    asyncio.run(_session(_params(tmp_path, "modern")))
    seen = _seen(tmp_path)
    assert seen[0]["method"] == "server/discover"
    assert all(m["params"]["_meta"] == META for m in seen if "method" in m and "id" in m and
               isinstance(m["id"], int))
    assert not any(m.get("method") == "initialize" for m in seen)
    # the server's own request was answered (nothing waits on it), with "method not found"
    replies = [m for m in seen if m.get("id") == "srv-1"]
    assert replies and all(r["error"]["code"] == -32601 for r in replies)


def test_a_server_without_discover_gets_the_handshake(tmp_path: Path) -> None:
    asyncio.run(_session(_params(tmp_path, "handshake")))
    methods = [m.get("method") for m in _seen(tmp_path) if "method" in m]
    assert methods[:3] == ["server/discover", "initialize", "notifications/initialized"]
    initialize = next(m for m in _seen(tmp_path) if m.get("method") == "initialize")
    assert initialize["params"]["protocolVersion"] and "_meta" not in initialize["params"]
    calls = [m for m in _seen(tmp_path) if m.get("method") == "tools/call"]
    assert calls and all("_meta" not in m["params"] for m in calls)


def test_a_server_that_stops_is_an_error_not_a_hang(tmp_path: Path) -> None:
    params = SimpleNamespace(command=sys.executable, args=["-c", "import sys; sys.stdin.readline()"], env=None)

    async def run() -> None:
        async with LineClient(params):
            pass

    with pytest.raises(ServerError, match="closed its output"):
        asyncio.run(run())
