"""Requests read from a pipe on the event loop (PipeLines) give the same lines a UTF-8 text wrapper
reads, however the bytes are cut into reads; anything that cannot be waited on is read as before."""

from __future__ import annotations

import os
import socket
import tempfile
from io import TextIOWrapper
from typing import Any

import anyio
import pytest

from orbitkb.mcp.stdio import PipeLines, request_lines

SAMPLES = [
    b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    '{"task":"rename the café’s invoices → receipts"}\n{"x":"😀"}\n'.encode(),
    b'{"a":"broken \xff byte"}\n\n{"b":1}',  # an invalid byte, an empty line, no final newline
    b"",
    b"\n\n",
    b'{"id":1}\r\n{"id":2}\r{"id":3}\r\n\r',  # Windows and old Mac line ends, a \r cut from its \n
    b'{"long":"' + b"z" * 200_000 + b'"}\n',
]


def read_all(source: Any) -> list[str]:
    async def go() -> list[str]:
        return [line async for line in source]

    return anyio.run(go)


def through_pipe(data: bytes, chunk: int, blocking: bool = True) -> list[str]:
    """The lines PipeLines reads from a pipe holding ``data``, ``chunk`` bytes per read at most."""
    read_end, write_end = os.pipe()
    os.set_blocking(read_end, blocking)
    try:
        with tempfile.TemporaryFile() as spool:  # the writer never blocks on a full pipe: a thread feeds it
            spool.write(data)
            spool.seek(0)

            async def go() -> list[str]:
                async def feed() -> None:
                    await anyio.to_thread.run_sync(_copy, spool.read(), write_end)

                lines = PipeLines(read_end)
                lines.CHUNK = chunk
                async with anyio.create_task_group() as tg:
                    tg.start_soon(feed)
                    out = [line async for line in lines]
                return out

            return anyio.run(go)
    finally:
        os.close(read_end)


def _copy(data: bytes, fd: int) -> None:
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view[:4096]):]
    finally:
        os.close(fd)


def wrapper_lines(data: bytes) -> list[str]:
    """What the text wrapper reads from the same bytes (the reference behaviour)."""
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.seek(0)
        return list(TextIOWrapper(f, encoding="utf-8", errors="replace"))


CHUNKS = (1, 2, 3, 7, 65536)
#: (sample, read size): every sample through every read size, but a long sample only through
#: whole reads (a byte at a time through 200 KB proves nothing more than 7 bytes at a time)
CUTS = [pytest.param(data, chunk, id=f"{i}-{chunk}") for i, data in enumerate(SAMPLES) for chunk in CHUNKS
        if chunk >= 8 or len(data) <= 10_000]


def test_every_sample_is_read_whole_or_cut_small() -> None:
    assert {len(c.values[0]) > 10_000 for c in CUTS if c.values[1] == 65536} == {True, False}
    assert len(CUTS) == len(SAMPLES) * len(CHUNKS) - 4


@pytest.mark.parametrize(("data", "chunk"), CUTS)
def test_pipe_lines_match_the_text_wrapper_whatever_the_reads(data: bytes, chunk: int) -> None:
    assert through_pipe(data, chunk) == wrapper_lines(data)


def test_a_character_cut_between_two_reads_is_whole_and_a_bad_byte_is_replaced() -> None:
    lines = through_pipe("é→😀\n".encode() + b"\xfe\n", 1)
    assert lines == ["é→😀\n", "\ufffd\n"]


def test_a_non_blocking_pipe_reads_the_same_lines() -> None:
    data = SAMPLES[1] + SAMPLES[2]
    assert through_pipe(data, 5, blocking=False) == wrapper_lines(data)


def test_a_pipe_and_a_socket_are_read_on_the_loop() -> None:
    read_end, write_end = os.pipe()
    left, right = socket.socketpair()
    try:
        with os.fdopen(read_end, "rb", closefd=False) as pipe, left.makefile("rb") as sock:
            assert isinstance(request_lines(pipe), PipeLines)
            assert isinstance(request_lines(sock), PipeLines)
    finally:
        for fd in (read_end, write_end):
            os.close(fd)
        left.close()
        right.close()


def test_a_regular_file_is_still_read_through_the_text_wrapper() -> None:
    with tempfile.TemporaryFile() as f:
        f.write(b'{"id":1}\n{"id":2}\n')
        f.seek(0)
        source = request_lines(f)
        assert not isinstance(source, PipeLines)  # epoll cannot wait on a regular file
        assert read_all(source) == ['{"id":1}\n', '{"id":2}\n']


def test_an_object_without_a_file_descriptor_is_read_through_the_text_wrapper() -> None:
    import io

    source = request_lines(io.BytesIO(b"one\ntwo"))
    assert not isinstance(source, PipeLines)
    assert read_all(source) == ["one\n", "two"]
