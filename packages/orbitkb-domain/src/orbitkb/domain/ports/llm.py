"""Model ports: an LLM backend (headless CLIs) and a local text embedder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from attrs import frozen

from orbitkb.domain.runs import LlmUsage


@frozen
class LlmResult:
    data: Mapping[str, Any]
    usage: LlmUsage = LlmUsage()


class LLMBackend(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str | None: ...

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        """Send ``prompt`` and return JSON conforming to ``schema``; raises LlmError."""
        ...


@runtime_checkable
class Cancellable(Protocol):
    """An LLMBackend that can stop its calls in flight (an interrupted run must not keep paying)."""

    def cancel(self) -> None:
        """Stop every ``generate`` running now (they raise LlmCancelled) and refuse later ones."""
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]: ...
