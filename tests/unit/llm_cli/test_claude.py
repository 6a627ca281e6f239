"""ClaudeCliBackend against a faked ``claude`` (pytest-subprocess): argv, stdin, env, outputs."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest

from orbitkb.domain.enrichment import EnrichKnowledge, EnrichRequest
from orbitkb.domain.enrichment.schemas import component_schema, endpoint_schema
from orbitkb.domain.errors import LlmError, LlmUnavailable
from orbitkb.domain.fakes import InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import Api, Component, Repository, Service, ServiceFacts
from orbitkb.domain.runs import LlmUsage
from orbitkb.llm_cli import ClaudeCliBackend

SCHEMA = component_schema()
ANSWER = {"summary": "Creates and fetches orders."}
ENV = {"PATH": "/usr/bin", "HOME": "/home/dev", "ANTHROPIC_API_KEY": "sk-ant-test"}

# The envelope `claude -p --output-format json --json-schema ...` prints (fields as documented at
# https://code.claude.com/docs/en/headless, cost/usage keys as seen in real payloads).
SUCCESS = {
    "type": "result",
    "subtype": "success",
    "is_error": False,
    "duration_ms": 9144,
    "num_turns": 2,
    "result": "",
    "session_id": "27c34d79-135c-44c6-b502-0edcd3c3246c",
    "total_cost_usd": 0.0727,
    "usage": {
        "input_tokens": 4,
        "cache_creation_input_tokens": 9369,
        "cache_read_input_tokens": 22296,
        "output_tokens": 121,
    },
    "structured_output": ANSWER,
}


def register(fp: Any, stdout: Any = "", returncode: int = 0, **kw: Any) -> Any:
    return fp.register(["claude", fp.any()], stdout=stdout, returncode=returncode, **kw)


def test_argv_has_each_flag_and_the_prompt_travels_on_stdin(fp: Any) -> None:
    seen: dict[str, Any] = {}

    def on_run(process: Any) -> None:
        seen["cwd"] = process.kwargs["cwd"]
        seen["cwd_exists"] = os.path.isdir(process.kwargs["cwd"])
        seen["cwd_empty"] = os.listdir(process.kwargs["cwd"]) == []
        seen["env"] = process.kwargs["env"]

    rec = register(
        fp, json.dumps(SUCCESS), callback=on_run, stdin_callable=lambda data: seen.update(stdin=data)
    )
    prompt = "describe this\n" + "x" * 300_000  # larger than one argv element may be
    result = ClaudeCliBackend("sonnet", env=ENV).generate(prompt, SCHEMA)

    argv = rec.calls[0].args
    assert argv[:6] == [
        "claude",
        "-p",
        "--output-format",
        "json",
        "--json-schema",
        json.dumps(SCHEMA, separators=(",", ":"), sort_keys=True),
    ]
    assert argv[6:] == ["--no-session-persistence", "--strict-mcp-config", "--model", "sonnet"]
    assert all(len(a) < 10_000 for a in argv) and prompt not in argv
    assert seen["stdin"] == prompt.encode()
    assert seen["cwd_exists"] and seen["cwd_empty"] and not os.path.exists(seen["cwd"])  # removed after
    assert "ANTHROPIC_API_KEY" not in seen["env"] and seen["env"]["HOME"] == "/home/dev"  # subscription
    assert result.data == ANSWER
    assert result.usage == LlmUsage(input_tokens=4 + 9369 + 22296, output_tokens=121, cost_usd=0.0727)


def test_bare_mode_passes_the_api_key_and_the_flag(fp: Any) -> None:
    seen: dict[str, Any] = {}
    rec = register(fp, json.dumps(SUCCESS), callback=lambda p: seen.update(env=p.kwargs["env"]))
    ClaudeCliBackend(bare=True, env=ENV).generate("p", SCHEMA)
    assert rec.calls[0].args[-1] == "--bare" and "--model" not in rec.calls[0].args
    assert seen["env"]["ANTHROPIC_API_KEY"] == "sk-ant-test"


def test_bare_mode_without_api_key_is_unavailable_before_running(fp: Any) -> None:
    rec = register(fp, json.dumps(SUCCESS))
    with pytest.raises(LlmUnavailable) as err:
        ClaudeCliBackend(bare=True, env={"PATH": "/usr/bin"}).generate("p", SCHEMA)
    assert "ANTHROPIC_API_KEY" in str(err.value) and "export ANTHROPIC_API_KEY" in (err.value.hint or "")
    assert rec.calls == []


def test_usage_fields_absent_stay_none(fp: Any) -> None:
    bare = {k: v for k, v in SUCCESS.items() if k not in ("usage", "total_cost_usd")}
    register(fp, json.dumps(bare))
    assert ClaudeCliBackend(env=ENV).generate("p", SCHEMA).usage == LlmUsage(None, None, None)
    odd = {**SUCCESS, "usage": {"output_tokens": "many"}, "total_cost_usd": None}
    register(fp, json.dumps(odd))
    assert ClaudeCliBackend(env=ENV).generate("p", SCHEMA).usage == LlmUsage(None, None, None)


def test_answer_in_a_fenced_result_when_structured_output_is_missing(fp: Any) -> None:
    # github.com/anthropics/claude-code/issues/18536: sometimes only `result` carries the JSON.
    envelope = {
        **SUCCESS,
        "structured_output": None,
        "result": "Here:\n```json\n" + json.dumps(ANSWER) + "\n```",
    }
    register(fp, "some progress line\n" + json.dumps(envelope))
    assert ClaudeCliBackend(env=ENV).generate("p", SCHEMA).data == ANSWER


def test_not_logged_in_names_the_fix(fp: Any) -> None:
    envelope = {
        **SUCCESS,
        "is_error": True,
        "subtype": "success",
        "result": "Not logged in · Please run /login",
    }
    del envelope["structured_output"]
    register(fp, json.dumps(envelope), returncode=1)
    with pytest.raises(LlmUnavailable) as err:
        ClaudeCliBackend(env=ENV).generate("p", SCHEMA)
    assert "not logged in" in str(err.value).lower() and "claude login" in (err.value.hint or "")


def test_is_error_that_is_not_about_login_is_an_llm_error(fp: Any) -> None:
    envelope = {
        **SUCCESS,
        "is_error": True,
        "subtype": "error_max_turns",
        "result": "",
        "structured_output": None,
    }
    register(fp, json.dumps(envelope))
    with pytest.raises(LlmError) as err:
        ClaudeCliBackend(env=ENV).generate("p", SCHEMA)
    assert not isinstance(err.value, LlmUnavailable) and "error_max_turns" in str(err.value)


def test_non_json_output_is_an_error_quoting_it(fp: Any) -> None:
    register(fp, "Segmentation fault? no: plain text answer")
    with pytest.raises(LlmError, match="printed no JSON result: Segmentation"):
        ClaudeCliBackend(env=ENV).generate("p", SCHEMA)


def test_non_zero_exit_without_json_quotes_stderr(fp: Any) -> None:
    register(fp, "", returncode=2, stderr="error: unknown option '--strict-mcp-config'")
    with pytest.raises(LlmError, match="exited with status 2: error: unknown option"):
        ClaudeCliBackend(env=ENV).generate("p", SCHEMA)


def test_timeout_is_an_llm_error_with_a_hint(fp: Any) -> None:
    def hang(process: Any) -> None:
        raise subprocess.TimeoutExpired(process.args, 5)

    register(fp, callback=hang)
    with pytest.raises(LlmError) as err:
        ClaudeCliBackend(timeout=5, env=ENV).generate("p", SCHEMA)
    assert "did not answer within 5s" in str(err.value) and not isinstance(err.value, LlmUnavailable)
    assert "--jobs" in (err.value.hint or "")


def test_missing_cli_says_how_to_install(fp: Any) -> None:
    def missing(process: Any) -> None:
        raise FileNotFoundError(2, "No such file or directory", "claude")

    register(fp, callback=missing)
    with pytest.raises(LlmUnavailable) as err:
        ClaudeCliBackend(env=ENV).generate("p", SCHEMA)
    assert "not found on PATH" in str(err.value) and "npm install -g @anthropic-ai/claude-code" in (
        err.value.hint or ""
    )


def test_schema_violation_then_success_on_retry_through_the_use_case(fp: Any) -> None:
    """The CLI's own answer violates the schema once; the domain retries and keeps the second."""
    svc = Service(service_id("r", "s"), "s", "r", ".", "python")
    comp = Component("comp:1", svc.id, "main", "main.py", "module")
    api = Api("api:1", svc.id, "GET", "/health", "health", "main.py", 1, 2, component_id=comp.id)
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(
        Repository("r", "/r"), [ServiceFacts(svc, (comp,), (api,))], [], [], [], []
    )
    endpoint_answer = {
        "summary": "Liveness check.",
        "description": "Returns ok.",
        "request_shape": [],
        "response_shape": [],
        "validations": [],
        "proposed_calls": [],
    }
    invalid = {
        **SUCCESS,
        "structured_output": {**endpoint_answer, "validations": [{"kind": "vibes", "description": "x"}]},
    }
    register(fp, json.dumps(invalid))
    register(fp, json.dumps({**SUCCESS, "structured_output": endpoint_answer}))
    register(fp, json.dumps({**SUCCESS, "structured_output": ANSWER}))
    register(fp, json.dumps({**SUCCESS, "structured_output": {"short_desc": "s", "long_desc": "l"}}))
    tree = MemorySourceTree({"main.py": "def health():\n    return 'ok'\n"})
    result = EnrichKnowledge(store, ClaudeCliBackend(env=ENV)).execute(EnrichRequest("r", tree, jobs=1))
    assert not result.failed and result.llm_calls == 4
    assert result.usage == LlmUsage((4 + 9369 + 22296) * 4, 121 * 4, pytest.approx(0.0727 * 4))
    assert store.list_apis()[0].summary == "Liveness check."
    assert endpoint_schema([]) == json.loads(fp.calls[0][5])
