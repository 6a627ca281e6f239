"""CodexCliBackend against a faked ``codex exec`` (pytest-subprocess): argv, files, JSONL events."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from orbitkb.domain.enrichment.schemas import overview_schema
from orbitkb.domain.errors import LlmError, LlmUnavailable
from orbitkb.domain.runs import LlmUsage
from orbitkb.llm_cli import CodexCliBackend

SCHEMA = overview_schema()
ANSWER = {"short_desc": "Orders service.", "long_desc": "Takes orders and charges them."}
ENV = {"PATH": "/usr/bin", "HOME": "/home/dev", "CODEX_API_KEY": "sk-test"}


def events(*items: dict[str, Any]) -> str:
    return "\n".join(json.dumps(i) for i in items) + "\n"


# Event shapes as in github.com/openai/codex docs/exec.md ("JSON output mode").
STARTED = {"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}
TURN = {"type": "turn.started"}
REASONING = {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "**Reading**"}}
MESSAGE = {
    "type": "item.completed",
    "item": {"id": "item_1", "type": "agent_message", "text": json.dumps(ANSWER)},
}
DONE = {
    "type": "turn.completed",
    "usage": {"input_tokens": 24763, "cached_input_tokens": 24448, "output_tokens": 122},
}


def arg_after(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def register(fp: Any, stdout: str = "", returncode: int = 0, **kw: Any) -> Any:
    return fp.register(["codex", "exec", fp.any()], stdout=stdout, returncode=returncode, **kw)


def test_argv_files_stdin_and_env(fp: Any) -> None:
    seen: dict[str, Any] = {}

    def on_run(process: Any) -> None:
        argv = process.args
        seen["schema"] = json.loads(Path(arg_after(argv, "--output-schema")).read_text())
        seen["cwd"] = process.kwargs["cwd"]
        seen["cwd_ok"] = os.path.isdir(process.kwargs["cwd"])
        seen["env"] = process.kwargs["env"]
        Path(arg_after(argv, "--output-last-message")).write_text(json.dumps(ANSWER))

    rec = register(
        fp,
        events(STARTED, TURN, REASONING, DONE),
        callback=on_run,
        stdin_callable=lambda d: seen.update(stdin=d),
    )
    prompt = "describe\n" + "y" * 200_000
    result = CodexCliBackend("gpt-5-codex", env=ENV).generate(prompt, SCHEMA)

    argv = rec.calls[0].args
    assert argv[:6] == ["codex", "exec", "--json", "--color", "never", "--skip-git-repo-check"]
    assert argv[6:9] == ["--ephemeral", "--sandbox", "read-only"]
    assert arg_after(argv, "--model") == "gpt-5-codex" and argv[-1] == "-"
    assert Path(arg_after(argv, "--output-schema")).parent == Path(seen["cwd"])
    assert seen["schema"] == SCHEMA and seen["cwd_ok"] and not os.path.exists(seen["cwd"])
    assert seen["stdin"] == prompt.encode() and prompt not in argv
    assert "CODEX_API_KEY" not in seen["env"]  # the ChatGPT login is billed by default
    assert result.data == ANSWER
    assert result.usage == LlmUsage(input_tokens=24763, output_tokens=122, cost_usd=None)


def test_api_key_mode_keeps_codex_api_key_and_requires_it(fp: Any) -> None:
    seen: dict[str, Any] = {}
    register(fp, events(MESSAGE, DONE), callback=lambda p: seen.update(env=p.kwargs["env"]))
    CodexCliBackend(api_key=True, env=ENV).generate("p", SCHEMA)
    assert seen["env"]["CODEX_API_KEY"] == "sk-test"
    with pytest.raises(LlmUnavailable) as err:
        CodexCliBackend(api_key=True, env={"PATH": "/usr/bin"}).generate("p", SCHEMA)
    assert "CODEX_API_KEY" in str(err.value) and "export CODEX_API_KEY" in (err.value.hint or "")


def test_answer_from_the_event_stream_when_no_last_message_file(fp: Any) -> None:
    rec = register(fp, "progress noise\n" + events(STARTED, MESSAGE, DONE))
    result = CodexCliBackend(env=ENV).generate("p", SCHEMA)
    assert result.data == ANSWER and "--model" not in rec.calls[0].args


def test_usage_absent_stays_none(fp: Any) -> None:
    register(fp, events(MESSAGE, {"type": "turn.completed"}))
    assert CodexCliBackend(env=ENV).generate("p", SCHEMA).usage == LlmUsage(None, None, None)


def test_turn_failed_is_an_llm_error_with_its_message(fp: Any) -> None:
    failed = {"type": "turn.failed", "error": {"message": "stream disconnected before completion"}}
    register(fp, events(STARTED, failed), returncode=1)
    with pytest.raises(LlmError, match="stream disconnected") as err:
        CodexCliBackend(env=ENV).generate("p", SCHEMA)
    assert not isinstance(err.value, LlmUnavailable)


def test_unauthorized_names_codex_login(fp: Any) -> None:
    err_event = {
        "type": "error",
        "message": "unexpected status 401 Unauthorized: Missing bearer authentication",
    }
    register(fp, events(STARTED, err_event), returncode=1)
    with pytest.raises(LlmUnavailable) as err:
        CodexCliBackend(env=ENV).generate("p", SCHEMA)
    assert "codex login" in (err.value.hint or "")


def test_prompt_echoed_on_stderr_is_not_mistaken_for_a_login_problem(fp: Any) -> None:
    stderr = (
        "user instructions:\n" + "if status == 401: unauthorized\n" + "z" * 5000 + "\nfatal: model overloaded"
    )
    register(fp, "", returncode=1, stderr=stderr)
    with pytest.raises(LlmError) as err:
        CodexCliBackend(env=ENV).generate("if status == 401", SCHEMA)
    assert not isinstance(err.value, LlmUnavailable) and "model overloaded" in str(err.value)


def test_non_json_final_message_is_an_error(fp: Any) -> None:
    prose = {
        "type": "item.completed",
        "item": {"id": "i", "type": "agent_message", "text": "Sure! The service..."},
    }
    register(fp, events(prose, DONE))
    with pytest.raises(LlmError, match="no JSON answer: Sure!"):
        CodexCliBackend(env=ENV).generate("p", SCHEMA)


def test_timeout_and_missing_cli(fp: Any) -> None:
    def hang(process: Any) -> None:
        raise subprocess.TimeoutExpired(process.args, 1)

    def missing(process: Any) -> None:
        raise FileNotFoundError(2, "No such file or directory", "codex")

    register(fp, callback=hang)
    with pytest.raises(LlmError, match="did not answer within 1.5s"):
        CodexCliBackend(timeout=1.5, env=ENV).generate("p", SCHEMA)
    register(fp, callback=missing)
    with pytest.raises(LlmUnavailable) as err:
        CodexCliBackend(env=ENV).generate("p", SCHEMA)
    assert "npm install -g @openai/codex" in (err.value.hint or "")
