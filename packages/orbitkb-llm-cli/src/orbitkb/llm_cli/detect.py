"""Choosing the LLM backend: ``--backend auto|claude|codex|offline`` or ORBITKB_BACKEND.

``auto`` picks claude, then codex, then offline, and the notice says which and why. Asking for
a CLI that is not installed is an error naming the install command, not a silent fallback.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping

from orbitkb.domain.errors import InvalidInput, LlmUnavailable
from orbitkb.domain.ports import LLMBackend
from orbitkb.llm_cli.backends import BACKENDS, CHOICES, CLAUDE
from orbitkb.llm_cli.claude import ClaudeCliBackend
from orbitkb.llm_cli.codex import CodexCliBackend

ENV_VAR = "ORBITKB_BACKEND"
AUTO_ORDER = tuple(BACKENDS)
_INSTALL = {name: info.install_hint for name, info in BACKENDS.items()}


def detect_backend(
    preference: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    model: str | None = None,
    claude_bare: bool = False,
    codex_api_key: bool = False,
    timeout: float = 300.0,
    which: Callable[[str], str | None] = shutil.which,
) -> tuple[LLMBackend | None, str]:
    """(backend or None for offline, a one-line notice for the user). ``env`` defaults to the
    process environment; backends pass it on to the CLI they run."""
    env = dict(os.environ) if env is None else env
    raw = preference or env.get(ENV_VAR) or "auto"
    choice = raw.strip().lower()
    source = "--backend" if preference else (ENV_VAR if env.get(ENV_VAR) else "default")
    if choice not in CHOICES:
        raise InvalidInput(
            f"unknown backend {raw!r} (from {source})", hint="choose one of: " + ", ".join(CHOICES)
        )
    if choice == "offline":
        return None, f"backend offline (from {source}): facts only, no LLM descriptions"

    def make(name: str, path: str) -> LLMBackend:
        if name == CLAUDE.name:
            return ClaudeCliBackend(model, bare=claude_bare, timeout=timeout, executable=path, env=env)
        return CodexCliBackend(model, api_key=codex_api_key, timeout=timeout, executable=path, env=env)

    if choice != "auto":
        path = which(choice)
        if path is None:
            raise LlmUnavailable(
                f"backend {choice} requested (from {source}) but not found on PATH", hint=_INSTALL[choice]
            )
        return make(choice, path), f"backend {choice}: {path}"
    for name in AUTO_ORDER:
        path = which(name)
        if path is not None:
            return make(name, path), f"backend auto: using {name} ({path})"
    return None, (
        "backend auto: neither claude nor codex is on PATH, using offline (facts only); "
        "install Claude Code (npm install -g @anthropic-ai/claude-code) or Codex "
        "(npm install -g @openai/codex) for LLM descriptions"
    )
