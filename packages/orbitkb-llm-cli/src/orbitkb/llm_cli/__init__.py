"""orbitkb.llm_cli: LLMBackend adapters over the Claude Code and Codex headless CLIs.

The names load on first use (PEP 562): reading the backend table (``orbitkb.llm_cli.backends``,
what the settings list) imports neither subprocess nor the backends themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orbitkb.llm_cli.backends import CHOICES
    from orbitkb.llm_cli.claude import ClaudeCliBackend
    from orbitkb.llm_cli.codex import CodexCliBackend
    from orbitkb.llm_cli.detect import ENV_VAR, detect_backend

__all__ = ["CHOICES", "ENV_VAR", "ClaudeCliBackend", "CodexCliBackend", "detect_backend"]

_LAZY = {"CHOICES": "orbitkb.llm_cli.backends", "ClaudeCliBackend": "orbitkb.llm_cli.claude",
         "CodexCliBackend": "orbitkb.llm_cli.codex", "ENV_VAR": "orbitkb.llm_cli.detect",
         "detect_backend": "orbitkb.llm_cli.detect"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'orbitkb.llm_cli' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
