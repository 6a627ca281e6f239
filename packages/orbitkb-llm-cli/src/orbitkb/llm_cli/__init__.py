"""orbitkb.llm_cli: LLMBackend adapters over the Claude Code and Codex headless CLIs."""

from orbitkb.llm_cli.claude import ClaudeCliBackend
from orbitkb.llm_cli.codex import CodexCliBackend
from orbitkb.llm_cli.detect import CHOICES, ENV_VAR, detect_backend

__all__ = ["CHOICES", "ENV_VAR", "ClaudeCliBackend", "CodexCliBackend", "detect_backend"]
