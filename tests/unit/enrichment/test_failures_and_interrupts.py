"""A broken backend is not paid for unit after unit, its causes are reported, and an interrupt
stops the LLM work at once while keeping every answer already received."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

import pytest

from orbitkb.domain.enrichment import EnrichKnowledge, EnrichRequest
from orbitkb.domain.enrichment.phase import ALIKE_FAILURES
from orbitkb.domain.errors import LlmCancelled, LlmError
from orbitkb.domain.fakes.llm import FakeLLMBackend, synthesize
from orbitkb.domain.ports import Cancellable, LlmResult
from orbitkb.domain.runs import LlmUsage

from .conftest import REPO

BROKEN = "claude exited with status 1: Error: model 'nope' not found"


def run(store: Any, backend: Any, tree: Any, jobs: int = 1, progress: Any = None) -> Any:
    return EnrichKnowledge(store, backend, progress=progress).execute(EnrichRequest(REPO, tree, jobs=jobs))


def test_a_plainly_broken_cli_stops_after_alike_failures_and_says_why(store: Any, tree: Any) -> None:
    llm = FakeLLMBackend(responder=lambda p, s: LlmError(BROKEN))
    result = run(store, llm, tree)
    assert len(llm.calls) == ALIKE_FAILURES * 2  # each unit tried twice, then the run stops
    assert result.aborted == f"stopped after {ALIKE_FAILURES} units failed alike: LlmError: {BROKEN}"
    assert result.causes == (f"LlmError: {BROKEN}",)
    assert len(result.failed) == ALIKE_FAILURES and result.count("skipped") == 14 - ALIKE_FAILURES


def test_different_failures_or_a_success_in_between_do_not_stop_the_run(store: Any, tree: Any) -> None:
    seen = {"n": 0}
    lock = threading.Lock()

    def flaky(prompt: str, schema: Mapping[str, Any]) -> Any:
        with lock:
            seen["n"] += 1
            n = seen["n"]
        if n % 6 == 0:  # every third unit (two attempts each) answers
            return synthesize(schema)
        return LlmError(f"claude exited with status {n % 4}: transient")

    result = run(store, FakeLLMBackend(responder=flaky), tree)
    assert result.aborted is None
    assert result.count("generated") + len(result.failed) == 14
    assert 1 <= len(result.causes) <= 3  # the first distinct causes, not one per unit


def test_invalid_answers_are_judged_per_unit_and_never_stop_the_run(store: Any, tree: Any) -> None:
    result = run(store, FakeLLMBackend(responder=lambda p, s: {"nonsense": True}), tree)
    assert result.aborted is None and len(result.failed) == 14
    assert result.causes and result.causes[0].startswith("invalid answer:")


class SlowCancellable:
    """The first ``fast`` calls answer at once; the others block until ``cancel``, like a CLI
    child that is terminated."""

    def __init__(self, fast: int) -> None:
        self.fast = fast
        self.calls: list[str] = []
        self.cancelled = threading.Event()
        self._lock = threading.Lock()

    name = "fake"  # the FakeLLMBackend's name and model: the same cache keys
    model = "fake-model"

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        with self._lock:
            self.calls.append(prompt)
            n = len(self.calls)
        if n <= self.fast:
            return LlmResult(synthesize(schema), LlmUsage())
        if self.cancelled.wait(30):
            raise LlmCancelled("stopped")
        return LlmResult(synthesize(schema), LlmUsage())

    def cancel(self) -> None:
        self.cancelled.set()


def test_an_interrupt_cancels_queued_units_stops_running_ones_and_keeps_answers(store: Any, tree: Any) -> None:
    backend = SlowCancellable(fast=1)
    assert isinstance(backend, Cancellable)

    def interrupt(stage: str, done: int, total: int) -> None:
        raise KeyboardInterrupt  # Ctrl-C right after the first answer arrived

    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run(store, backend, tree, jobs=2, progress=interrupt)
    assert time.monotonic() - started < 2
    assert backend.cancelled.is_set()
    assert len(backend.calls) <= 3, "no queued unit may start after the interrupt"
    answered = backend.calls[0]

    again = FakeLLMBackend()
    run(store, again, tree, jobs=2)
    assert answered not in [c.prompt for c in again.calls], "the answer received before Ctrl-C is kept"
    assert len(again.calls) == 14 - 1
