"""cancel() terminates a backend's running CLI child at once and refuses new calls (both CLIs).
The CLI is a real slow process standing in for claude/codex, never the real one."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from orbitkb.domain.errors import LlmCancelled
from orbitkb.llm_cli import ClaudeCliBackend, CodexCliBackend

SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}


@pytest.mark.parametrize("make", [ClaudeCliBackend, CodexCliBackend], ids=["claude", "codex"])
def test_cancel_stops_the_running_child_and_refuses_new_calls(tmp_path: Path, make: Any) -> None:
    slow = tmp_path / "slow-cli"
    slow.write_text(f"#!/bin/sh\necho $$ > {tmp_path}/pid\nexec sleep 60\n")
    slow.chmod(0o755)
    backend = make(executable=str(slow), env={"PATH": "/usr/bin:/bin"})
    raised: list[BaseException] = []

    def call() -> None:
        try:
            backend.generate("describe", SCHEMA)
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            raised.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    deadline = time.monotonic() + 10
    while not (tmp_path / "pid").exists():
        assert time.monotonic() < deadline
        time.sleep(0.02)
    started = time.monotonic()
    backend.cancel()
    worker.join(5)
    assert not worker.is_alive() and time.monotonic() - started < 2
    assert isinstance(raised[0], LlmCancelled)
    with pytest.raises(LlmCancelled):
        backend.generate("another", SCHEMA)
