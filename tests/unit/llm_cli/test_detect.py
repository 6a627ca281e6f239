"""Backend choice: --backend auto|claude|codex|offline and ORBITKB_BACKEND."""

from __future__ import annotations

import json
from typing import Any

import pytest

from orbitkb.domain.errors import InvalidInput, LlmUnavailable
from orbitkb.llm_cli import ClaudeCliBackend, CodexCliBackend, detect_backend


def which_of(*installed: str) -> Any:
    paths = {name: f"/opt/bin/{name}" for name in installed}
    return lambda name: paths.get(name)


def test_auto_prefers_claude_then_codex_then_offline() -> None:
    backend, notice = detect_backend(None, {}, which=which_of("claude", "codex"))
    assert isinstance(backend, ClaudeCliBackend) and notice == "backend auto: using claude (/opt/bin/claude)"
    backend, notice = detect_backend("auto", {}, which=which_of("codex"))
    assert isinstance(backend, CodexCliBackend) and "using codex" in notice
    backend, notice = detect_backend(None, {}, which=which_of())
    assert backend is None and "offline" in notice and "npm install -g @openai/codex" in notice


def test_environment_variable_is_used_when_no_flag_and_the_flag_wins() -> None:
    env = {"ORBITKB_BACKEND": "Codex"}
    backend, notice = detect_backend(None, env, which=which_of("claude", "codex"))
    assert isinstance(backend, CodexCliBackend) and notice == "backend codex: /opt/bin/codex"
    backend, _ = detect_backend("claude", env, which=which_of("claude", "codex"))
    assert isinstance(backend, ClaudeCliBackend)
    backend, notice = detect_backend(None, {"ORBITKB_BACKEND": "offline"}, which=which_of("claude"))
    assert backend is None and "from ORBITKB_BACKEND" in notice


def test_a_requested_cli_that_is_missing_is_an_error_naming_the_install() -> None:
    with pytest.raises(LlmUnavailable) as err:
        detect_backend("claude", {}, which=which_of("codex"))
    assert "npm install -g @anthropic-ai/claude-code" in (err.value.hint or "")


def test_unknown_backend_is_invalid_input_listing_choices() -> None:
    with pytest.raises(InvalidInput) as err:
        detect_backend(None, {"ORBITKB_BACKEND": "gpt"}, which=which_of("claude"))
    assert "ORBITKB_BACKEND" in str(err.value) and "auto, claude, codex, offline" in (err.value.hint or "")


def test_options_reach_the_backend_and_its_resolved_path_is_run(fp: Any) -> None:
    backend, _ = detect_backend(
        "claude", {"ANTHROPIC_API_KEY": "k"}, model="opus", claude_bare=True, which=which_of("claude")
    )
    assert backend is not None and backend.model == "opus"
    envelope = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "structured_output": {"summary": "s"},
    }
    rec = fp.register(["/opt/bin/claude", fp.any()], stdout=json.dumps(envelope))
    backend.generate("p", {"type": "object"})
    argv = rec.calls[0].args
    assert argv[0] == "/opt/bin/claude" and argv[-3:] == ["--model", "opus", "--bare"]
