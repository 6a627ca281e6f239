"""The stdio transport, with an answer for every line a client sends.

The SDK's transport drops a line it cannot read (truncated JSON, a lone surrogate escape, arrays
nested past its parser's limit, a batch) without a word, and the client waits forever. Here each
such line gets a JSON-RPC error (-32700 parse error, -32600 invalid request) carrying the
request's id when it can be read at all, and the server keeps serving.

Answers are written straight to the protocol's pipe: the SDK's default stdout hands each write and
each flush to a worker thread, two thread switches per answer that a loaded machine turns into
milliseconds of waiting (a line of a few KB goes into the pipe without blocking). Requests are read
the same way when stdin is a pipe or a socket: the event loop waits for bytes and reads them
(``PipeLines``), instead of a worker thread blocked in ``readline`` handing each line over.
"""

from __future__ import annotations

import codecs
import io
import json
import os
import stat
import sys
from collections.abc import AsyncIterable, AsyncIterator, Callable
from io import TextIOWrapper
from typing import Any

import anyio
import mcp_types as types
from pydantic import ValidationError

from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage


def rejection(line: str) -> types.JSONRPCError | None:
    """The error answering ``line``, or None when the SDK can read it as a JSON-RPC message."""
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return None
    except ValidationError as exc:
        first = exc.errors(include_input=False, include_url=False)[0]
        invalid_json = first["type"] == "json_invalid"
        reason = str(first["msg"])[:200]
    try:
        obj: Any = json.loads(line)
    except (ValueError, RecursionError):
        obj = None
    if isinstance(obj, list):
        code, message = types.INVALID_REQUEST, "Invalid Request: a batch (JSON array) is not supported, send one request object per line"
    elif invalid_json and obj is not None and not _encodable(obj):
        code, message = types.PARSE_ERROR, "Parse error: a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff)"
    elif invalid_json:
        code, message = types.PARSE_ERROR, f"Parse error: {reason}"
    else:
        code, message = types.INVALID_REQUEST, f"Invalid Request: not a JSON-RPC 2.0 message ({reason})"
    return types.JSONRPCError(jsonrpc="2.0", id=_id_of(obj), error=types.ErrorData(code=code, message=message))


def _encodable(obj: Any) -> bool:
    try:
        json.dumps(obj, ensure_ascii=False).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def _id_of(obj: Any) -> int | str | None:
    rid = obj.get("id") if isinstance(obj, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        return None
    return rid if _encodable(rid) else None  # a lone surrogate cannot be written back


class CheckedLines:
    """stdin for the SDK transport: readable lines pass through, the rest are answered here."""

    def __init__(self, source: Any) -> None:
        self._source = source
        self._replies: Any = None
        self._ready = anyio.Event()

    def reply_through(self, write_stream: Any) -> None:
        self._replies = write_stream
        self._ready.set()

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._source:
            if not line.strip():
                continue
            error = rejection(line)
            if error is None:
                yield line
                continue
            await self._ready.wait()
            await self._replies.send(SessionMessage(error))


class PipeLines:
    """stdin lines read on the event loop from a pipe or socket ``fd``, as the text wrapper reads them:
    UTF-8 with an invalid byte as U+FFFD, ``\\r\\n`` and ``\\r`` read as ``\\n``, each line with its
    ``\\n``, the last one even without."""

    CHUNK = 65536

    def __init__(self, fd: int) -> None:
        self._fd = fd

    async def __aiter__(self) -> AsyncIterator[str]:
        decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")(errors="replace"), translate=True)
        pending = ""
        while True:
            await anyio.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, self.CHUNK)  # readable: returns what is there, b"" at the end
            except BlockingIOError:  # a non-blocking pipe woke us for nothing
                continue
            if not chunk:
                break
            pending += decoder.decode(chunk)
            if "\n" in pending:
                *lines, pending = pending.split("\n")
                for line in lines:
                    yield line + "\n"
        pending += decoder.decode(b"", final=True)
        if pending:
            yield pending


def request_lines(raw: Any) -> AsyncIterable[str]:
    """The lines of ``raw`` (a binary file): read on the event loop from a pipe or a socket; through a
    worker thread from anything else (a regular file or a device cannot be waited on)."""
    try:
        fd = raw.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        mode = 0
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return PipeLines(fd)
    return anyio.wrap_file(TextIOWrapper(raw, encoding="utf-8", errors="replace"))


class DirectLines:
    """stdout for the SDK transport: each answer written and flushed in place, no worker thread."""

    def __init__(self, sink: Any) -> None:
        self._sink = sink

    async def write(self, text: str) -> None:
        self._sink.write(text)

    async def flush(self) -> None:
        self._sink.flush()


def _claim_stdout() -> tuple[Any, Callable[[], None]]:
    """Write the protocol to a private copy of fd 1 and point fd 1 at stderr, so that a stray print
    (ours, a library's, a child process's) lands in the log, never in the middle of a message."""
    try:
        private = os.dup(1)
        os.dup2(2, 1)
    except OSError:
        return sys.stdout.buffer, lambda: None

    def restore() -> None:
        try:
            os.dup2(private, 1)
        except OSError:
            pass

    return os.fdopen(private, "wb", closefd=False), restore


def _claim_stdin() -> tuple[Any, Callable[[], None]]:
    """Read the protocol from a private copy of fd 0 and point fd 0 at the null device, so a child
    process (git, an LLM CLI) can never read a client's bytes (``_claim_stdout`` guards fd 1)."""
    try:
        private = os.dup(0)
        null = os.open(os.devnull, os.O_RDONLY)
    except OSError:
        return sys.stdin.buffer, lambda: None
    os.dup2(null, 0)
    os.close(null)

    def restore() -> None:
        try:
            os.dup2(private, 0)
        except OSError:
            pass

    return os.fdopen(private, "rb", closefd=False), restore


async def run_stdio(server: MCPServer) -> None:
    raw, restore = _claim_stdin()
    wire, restore_out = _claim_stdout()
    lines = CheckedLines(request_lines(raw))
    out = DirectLines(TextIOWrapper(wire, encoding="utf-8", newline="\n"))
    try:
        async with stdio_server(stdin=lines, stdout=out) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.reply_through(write_stream)
            lowlevel = server._lowlevel_server
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
    finally:
        restore_out()
        restore()
