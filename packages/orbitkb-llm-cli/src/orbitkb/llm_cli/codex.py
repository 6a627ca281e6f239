"""CodexCliBackend: the LLMBackend port over ``codex exec`` (non-interactive Codex).

The prompt goes on stdin (``-`` as the PROMPT argument), the schema in a file given to
``--output-schema``, and the final message is read from the ``--output-last-message`` file (or,
failing that, from the last ``agent_message`` of the ``--json`` event stream, which also carries
token usage; Codex reports no cost, so cost stays None). By default the ChatGPT login is billed:
CODEX_API_KEY is removed from the child's environment; ``api_key=True`` requires and uses it.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from orbitkb.domain.errors import LlmError, LlmUnavailable
from orbitkb.domain.ports import LlmResult
from orbitkb.domain.runs import LlmUsage
from orbitkb.llm_cli.backends import CODEX as INFO
from orbitkb.llm_cli.jsonout import as_int, json_lines, parse_answer
from orbitkb.llm_cli.process import Children, Finished, fail_exit, quote, run_cli

API_KEY_VAR = "CODEX_API_KEY"
API_KEY_HINT = "export CODEX_API_KEY=... (--codex-api-key bills the API key), or drop --codex-api-key"


class CodexCliBackend:
    def __init__(
        self,
        model: str | None = None,
        *,
        api_key: bool = False,
        timeout: float = 300.0,
        executable: str = "codex",
        env: Mapping[str, str] | None = None,
    ) -> None:
        self._model = model
        self._api_key = api_key
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

    def argv(self, schema_file: str, last_message_file: str) -> list[str]:
        # https://developers.openai.com/codex/noninteractive and github.com/openai/codex
        # docs/exec.md: `codex exec`, --json (JSONL events incl. turn.completed usage),
        # --output-schema FILE, -o/--output-last-message FILE, --skip-git-repo-check (the cwd is
        # a temp dir, not a git repository).
        argv = [self._executable, "exec", "--json", "--color", "never", "--skip-git-repo-check"]
        # github.com/openai/codex codex-rs/exec/src/cli.rs: --ephemeral (no session files),
        # PROMPT "-" = read instructions from stdin; --sandbox read-only (nothing to write).
        argv += ["--ephemeral", "--sandbox", "read-only"]
        argv += ["--output-schema", schema_file, "--output-last-message", last_message_file]
        if self._model:
            argv += ["--model", self._model]
        argv.append("-")
        return argv

    def child_env(self) -> dict[str, str]:
        env = dict(self._env)
        if self._api_key:
            # docs/exec.md "Authentication": CODEX_API_KEY is honoured by `codex exec` only.
            if not env.get(API_KEY_VAR):
                raise LlmUnavailable(
                    f"--codex-api-key needs {API_KEY_VAR} in the environment", hint=API_KEY_HINT
                )
        else:
            env.pop(API_KEY_VAR, None)  # bill the ChatGPT login, never the API by accident
        return env

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        env = self.child_env()
        with tempfile.TemporaryDirectory(prefix="orbitkb-codex-") as cwd:
            schema_file = Path(cwd, "schema.json")
            last_file = Path(cwd, "last-message.json")
            schema_file.write_text(json.dumps(schema, sort_keys=True), encoding="utf-8")
            done = run_cli(
                INFO,
                self.argv(str(schema_file), str(last_file)),
                prompt,
                cwd=cwd,
                env=env,
                timeout=self._timeout,
                children=self._children,
            )
            final = last_file.read_text(encoding="utf-8", errors="replace") if last_file.is_file() else ""
        return self._parse(done, final)

    def _parse(self, done: Finished, final: str) -> LlmResult:
        usage = LlmUsage()
        errors: list[str] = []
        last_message = ""
        for event in json_lines(done.stdout):
            kind = event.get("type")
            if kind == "turn.completed" and isinstance(event.get("usage"), Mapping):
                u = event["usage"]
                # input_tokens already includes cached_input_tokens (a subset) in OpenAI usage.
                usage = usage + LlmUsage(as_int(u.get("input_tokens")), as_int(u.get("output_tokens")), None)
            elif kind in ("turn.failed", "error"):
                err = event.get("error")
                errors.append(
                    str(err.get("message") if isinstance(err, Mapping) else event.get("message") or err)
                )
            elif kind == "item.completed" and isinstance(event.get("item"), Mapping):
                item = event["item"]
                if item.get("type") == "agent_message" and isinstance(item.get("text"), str):
                    last_message = item["text"]
        if errors or done.returncode != 0:
            raise self._failure(fail_exit(INFO, done, quote("; ".join(errors)) if errors else None))
        data = parse_answer(final) or parse_answer(last_message)
        if data is None:
            raise LlmError(
                f"codex returned no JSON answer: {quote(final or last_message) or 'empty final message'}"
            )
        return LlmResult(data=data, usage=usage)

    def _failure(self, error: LlmError) -> LlmError:
        if self._api_key and isinstance(error, LlmUnavailable):
            return LlmUnavailable(str(error), hint=API_KEY_HINT)
        return error
