"""ClaudeCliBackend: the LLMBackend port over Claude Code's headless mode (``claude -p``).

The prompt goes on stdin (an argv element is capped at 128 KiB on Linux); the answer comes back
in the JSON envelope's ``structured_output`` field, validated by the CLI against ``--json-schema``.
By default the subscription is billed: ANTHROPIC_API_KEY is removed from the child's
environment. ``bare=True`` runs ``--bare``, which reads only ANTHROPIC_API_KEY (billing the API).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from typing import Any

from orbitkb.domain.errors import LlmError, LlmUnavailable
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage
from orbitkb.llm_cli.backends import CLAUDE as INFO
from orbitkb.llm_cli.jsonout import as_float, as_int, last_json_object, parse_answer
from orbitkb.llm_cli.process import Children, fail_exit, quote, run_cli

BARE_LOGIN_HINT = "export ANTHROPIC_API_KEY=... (--claude-bare bills the API key), or drop --claude-bare"
API_KEY_VAR = "ANTHROPIC_API_KEY"
MAX_SCHEMA_CHARS = 60_000  # the schema is one argv element; ours are a few KB


class ClaudeCliBackend:
    def __init__(
        self,
        model: str | None = None,
        *,
        bare: bool = False,
        timeout: float = 300.0,
        executable: str = "claude",
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._model = model
        self._bare = bare
        self._timeout = timeout
        self._executable = executable
        self._env = dict(os.environ if env is None else env)
        self._children = Children()

    @property
    def name(self) -> str:
        return INFO.name

    @property
    def model(self) -> str | None:
        return self._model

    def cancel(self) -> None:
        """Stop the calls in flight (an interrupted run) and refuse new ones."""
        self._children.cancel()

    def argv(self, schema: Mapping[str, Any]) -> list[str]:
        schema_text = json.dumps(schema, separators=(",", ":"), sort_keys=True)
        if len(schema_text) > MAX_SCHEMA_CHARS:
            raise LlmError(f"JSON schema of {len(schema_text)} characters is too large for --json-schema")
        # https://code.claude.com/docs/en/headless : -p (print/headless), --output-format json,
        # --json-schema (answer in `structured_output`), --bare; a prompt piped on stdin is read.
        argv = [self._executable, "-p", "--output-format", "json", "--json-schema", schema_text]
        # https://code.claude.com/docs/en/cli-reference : --model, --no-session-persistence,
        # --strict-mcp-config (ignore the user's MCP servers: fewer tokens, nothing to misuse).
        # Built-in tools are left alone: structured output is itself a synthetic tool call
        # (github.com/anthropics/claude-code/issues/57757), and the cwd is an empty temp dir.
        argv += ["--no-session-persistence", "--strict-mcp-config"]
        if self._model:
            argv += ["--model", self._model]
        if self._bare:
            argv.append("--bare")
        return argv

    def child_env(self) -> dict[str, str]:
        env = dict(self._env)
        if self._bare:
            if not env.get(API_KEY_VAR):
                raise LlmUnavailable(
                    f"--claude-bare needs {API_KEY_VAR} in the environment", hint=BARE_LOGIN_HINT
                )
        else:
            env.pop(API_KEY_VAR, None)  # bill the logged-in subscription, never the API by accident
        return env

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        argv = self.argv(schema)
        env = self.child_env()
        with tempfile.TemporaryDirectory(prefix="orbitkb-claude-") as cwd:
            done = run_cli(
                INFO, argv, prompt, cwd=cwd, env=env, timeout=self._timeout, children=self._children
            )
        envelope = last_json_object(done.stdout)
        if envelope is None:
            if done.returncode != 0:
                raise self._failure(fail_exit(INFO, done))
            raise LlmError(
                f"claude printed no JSON result: {quote(done.stdout) or quote(done.stderr) or 'no output'}"
            )
        usage = _usage(envelope)
        if (
            envelope.get("is_error")
            or done.returncode != 0
            or str(envelope.get("subtype", "success")) != "success"
        ):
            detail = quote(str(envelope.get("result") or envelope.get("subtype") or "error"))
            raise self._failure(fail_exit(INFO, done, detail))
        data = envelope.get("structured_output")
        if not isinstance(data, dict):
            data = parse_answer(envelope.get("result"))
        if data is None:
            raise LlmError(
                f"claude returned no structured output: {quote(str(envelope.get('result') or ''))}"
            )
        return LlmResult(data=data, usage=usage)

    def _failure(self, error: LlmError) -> LlmError:
        if self._bare and isinstance(error, LlmUnavailable):
            return LlmUnavailable(str(error), hint=BARE_LOGIN_HINT)
        return error


def _usage(envelope: Mapping[str, Any]) -> LlmUsage:
    """Tokens and cost from the envelope, each None when absent. Input counts cached tokens too:
    they were sent, and the CLI reports them apart from ``input_tokens``."""
    raw = envelope.get("usage")
    usage: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    parts = [
        as_int(usage.get(k))
        for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    ]
    known = [p for p in parts if p is not None]
    return LlmUsage(
        input_tokens=sum(known) if known else None,
        output_tokens=as_int(usage.get("output_tokens")),
        cost_usd=as_float(envelope.get("total_cost_usd", envelope.get("cost_usd"))),
    )
