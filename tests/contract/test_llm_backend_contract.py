"""The LLMBackend contract: the scripted fake and both CLI adapters (their `claude` / `codex`
faked with pytest-subprocess, as their own tests do) answer alike: the prompt and the schema
reach the model unchanged, the answer comes back as an ``LlmResult`` of a dict and an
``LlmUsage``, a failure is an ``LlmError``, and ``cancel()`` stops every later call before
anything is sent — the enrichment phase relies on each of these whatever backend it holds."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from attrs import define, field

from orbitkb.domain.errors import LlmCancelled, LlmError
from orbitkb.domain.fakes import FakeLLMBackend
from orbitkb.domain.ports import Cancellable, LLMBackend, LlmResult
from orbitkb.domain.runs import LlmUsage
from orbitkb.llm_cli import ClaudeCliBackend, CodexCliBackend

SCHEMA = {"type": "object", "properties": {"summary": {"type": "string"}}, "required": ["summary"]}
ANSWER = {"summary": "Takes orders and charges them — in €."}
PROMPT = "Describe the orders service.\n" + "Größe ✓ " * 30_000  # past one argv element's limit
ENV = {"PATH": "/usr/bin", "HOME": "/home/dev"}


@define
class Harness:
    """A backend of one kind, scripted to answer or fail, and what reached its model."""

    fp: Any
    prompts: list[str] = field(factory=list)
    schemas: list[Mapping[str, Any]] = field(factory=list)

    def answering(self, answer: Mapping[str, Any]) -> LLMBackend:
        raise NotImplementedError

    def failing(self, message: str) -> LLMBackend:
        raise NotImplementedError

    def sync(self) -> None:
        """Bring ``prompts`` / ``schemas`` up to date (the CLIs' are filled as they run)."""


class FakeHarness(Harness):
    def _backend(self, item: Any) -> LLMBackend:
        backend = FakeLLMBackend(script=[item])

        def seen() -> None:  # the fake records its calls; read them as the CLIs' stdin is read
            self.prompts[:] = [c.prompt for c in backend.calls]
            self.schemas[:] = [c.schema for c in backend.calls]

        self._seen = seen
        return backend

    def answering(self, answer: Mapping[str, Any]) -> LLMBackend:
        return self._backend(dict(answer))

    def failing(self, message: str) -> LLMBackend:
        return self._backend(LlmError(message))

    def sync(self) -> None:
        self._seen()


class ClaudeHarness(Harness):
    def _register(self, stdout: str, returncode: int = 0) -> None:
        def on_run(process: Any) -> None:
            argv = process.args
            self.schemas.append(json.loads(argv[argv.index("--json-schema") + 1]))

        self.fp.register(["claude", self.fp.any()], stdout=stdout, returncode=returncode, callback=on_run,
                         stdin_callable=lambda data: self.prompts.append(data.decode()))  # fmt: skip

    def answering(self, answer: Mapping[str, Any]) -> LLMBackend:
        envelope = {"type": "result", "subtype": "success", "is_error": False, "result": "",
                    "total_cost_usd": 0.01, "usage": {"input_tokens": 40, "output_tokens": 9},
                    "structured_output": dict(answer)}  # fmt: skip
        self._register(json.dumps(envelope))
        return ClaudeCliBackend(env=ENV)

    def failing(self, message: str) -> LLMBackend:
        envelope = {"type": "result", "subtype": "error_during_execution", "is_error": True, "result": message}
        self._register(json.dumps(envelope), returncode=1)
        return ClaudeCliBackend(env=ENV)


class CodexHarness(Harness):
    def _register(self, events: list[Mapping[str, Any]], returncode: int = 0) -> None:
        def on_run(process: Any) -> None:
            argv = process.args
            self.schemas.append(json.loads(Path(argv[argv.index("--output-schema") + 1]).read_text()))

        self.fp.register(["codex", "exec", self.fp.any()], stdout="\n".join(json.dumps(e) for e in events) + "\n",
                         returncode=returncode, callback=on_run,
                         stdin_callable=lambda data: self.prompts.append(data.decode()))  # fmt: skip

    def answering(self, answer: Mapping[str, Any]) -> LLMBackend:
        self._register([
            {"type": "item.completed", "item": {"type": "agent_message", "text": json.dumps(dict(answer))}},
            {"type": "turn.completed", "usage": {"input_tokens": 40, "output_tokens": 9}},
        ])  # fmt: skip
        return CodexCliBackend(env=ENV)

    def failing(self, message: str) -> LLMBackend:
        self._register([{"type": "turn.failed", "error": {"message": message}}], returncode=1)
        return CodexCliBackend(env=ENV)


HARNESSES: dict[str, Callable[[Any], Harness]] = {"fake": FakeHarness, "claude": ClaudeHarness, "codex": CodexHarness}


@pytest.fixture(params=sorted(HARNESSES))
def harness(request: pytest.FixtureRequest, fp: Any) -> Harness:
    return HARNESSES[request.param](fp)


def test_the_answer_comes_back_as_a_result_with_usage(harness: Any) -> None:
    backend = harness.answering(ANSWER)
    assert isinstance(backend.name, str) and backend.name
    assert backend.model is None or isinstance(backend.model, str)
    result = backend.generate(PROMPT, SCHEMA)
    harness.sync()
    assert isinstance(result, LlmResult) and result.data == ANSWER and isinstance(result.data, dict)
    assert isinstance(result.usage, LlmUsage)
    for count in (result.usage.input_tokens, result.usage.output_tokens, result.usage.cost_usd):
        assert count is None or count >= 0


def test_the_prompt_and_the_schema_reach_the_model_unchanged(harness: Any) -> None:
    harness.answering(ANSWER).generate(PROMPT, SCHEMA)
    harness.sync()
    assert harness.prompts == [PROMPT] and harness.schemas == [SCHEMA]


def test_a_failure_is_an_llm_error_naming_the_cause(harness: Any) -> None:
    backend = harness.failing("the model is overloaded")
    with pytest.raises(LlmError, match="overloaded"):
        backend.generate(PROMPT, SCHEMA)


def test_after_cancel_nothing_is_sent_and_every_call_is_cancelled(harness: Any) -> None:
    backend = harness.answering(ANSWER)
    assert isinstance(backend, Cancellable)
    backend.cancel()
    for _ in range(2):
        with pytest.raises(LlmCancelled):
            backend.generate(PROMPT, SCHEMA)
    harness.sync()
    assert harness.prompts == []

