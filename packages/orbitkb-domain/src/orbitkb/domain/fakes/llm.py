"""FakeLLMBackend: scripted answers and a record of every call, for tests and benchmarks.

Scripts, in order of precedence:
- ``responder(prompt, schema)``: a function returning an answer (dict), an ``LlmResult`` or an
  exception instance to raise;
- ``script``: a list consumed one item per call (same item kinds); when it runs out, or with no
  script at all, a minimal valid answer is synthesized from the schema.

Like the CLI backends it is ``Cancellable``: after ``cancel()`` every call raises LlmCancelled
and is not recorded (nothing was sent).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from attrs import frozen

from orbitkb.domain.errors import LlmCancelled
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage

Scripted = Mapping[str, Any] | LlmResult | BaseException


@frozen
class FakeCall:
    prompt: str
    schema: Mapping[str, Any]


class FakeLLMBackend:
    def __init__(
        self,
        script: Iterable[Scripted] = (),
        responder: Callable[[str, Mapping[str, Any]], Scripted] | None = None,
        name: str = "fake",
        model: str | None = "fake-model",
        usage: LlmUsage = LlmUsage(input_tokens=100, output_tokens=20, cost_usd=0.001),
    ) -> None:
        self._script = list(script)
        self._responder = responder
        self._name = name
        self._model = model
        self._usage = usage
        self._lock = threading.Lock()
        self.calls: list[FakeCall] = []
        self.cancelled = False

    @property
    def name(self) -> str:
        return self._name

    @property
    def model(self) -> str | None:
        return self._model

    @property
    def prompt_bytes(self) -> int:
        return sum(len(c.prompt.encode("utf-8")) for c in self.calls)

    def cancel(self) -> None:
        """Refuse every later call (an interrupted run), as the CLI backends do."""
        with self._lock:
            self.cancelled = True

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        with self._lock:
            if self.cancelled:
                raise LlmCancelled(f"{self._name} was not started: the run was interrupted")
            self.calls.append(FakeCall(prompt, schema))
            item: Scripted | None = self._script.pop(0) if self._script else None
        if item is None:
            item = self._responder(prompt, schema) if self._responder else synthesize(schema)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, LlmResult):
            return item
        return LlmResult(data=dict(item), usage=self._usage)


def synthesize(schema: Mapping[str, Any], path: str = "answer", tag: str = "") -> Any:
    """A small instance valid against the enrichment schema subset (first enum value, [] arrays).
    ``tag`` is appended to every string, e.g. a hash of the prompt, so answers vary with input."""
    if "enum" in schema:
        return list(schema["enum"])[0]
    types = schema.get("type", "object")
    kind = types if isinstance(types, str) else [t for t in types if t != "null"][0]
    if kind == "object":
        return {k: synthesize(v, k, tag) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return []
    if kind == "string":
        return f"generated {path}{' ' + tag if tag else ''}"
    if kind == "boolean":
        return True
    if kind in ("integer", "number"):
        return 0
    return None
