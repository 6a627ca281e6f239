"""LLM failures are visible from the command line: the first causes are printed, a plainly broken
CLI is not called for every unit, the exit status says units failed, and --llm-timeout /
ORBITKB_LLM_TIMEOUT reach the CLI. ``claude`` is faked with pytest-subprocess (never run)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from orbitkb.cli.exit import ExitStatus
from orbitkb.cli.main import main
from orbitkb.domain.enrichment.phase import ALIKE_FAILURES

ROUTES = "\n\n".join(
    f'@app.{verb}("{path}")\ndef h{i}():\n    return {{}}\n'
    for i, (verb, path) in enumerate(
        [("get", "/orders"), ("post", "/orders"), ("get", "/orders/{id}"), ("delete", "/orders/{id}"),
         ("get", "/health"), ("put", "/orders/{id}")]
    )
)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    svc = tmp_path / "shop" / "orders"
    svc.mkdir(parents=True)
    (svc / "pyproject.toml").write_text('[project]\nname = "orders"\nversion = "0.1.0"\ndependencies = ["fastapi"]\n')
    (svc / "main.py").write_text("from fastapi import FastAPI\n\napp = FastAPI()\n\n\n" + ROUTES)
    return svc.parent


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fp: Any) -> str:
    """A `claude` on PATH that is never executed: pytest-subprocess answers in its place."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "claude"
    exe.write_text("#!/bin/sh\nexit 99\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    monkeypatch.delenv("ORBITKB_LLM_TIMEOUT", raising=False)
    fp.allow_unregistered(True)  # git and friends run for real
    fp.keep_last_process(True)
    return str(exe)


def index(repo: Path, tmp_path: Path, *extra: str) -> int:
    return main(["index", str(repo), "--db", str(tmp_path / "kb.db"), "--backend", "claude",
                 "--embedder", "off", "--jobs", "1", *extra])


def test_a_broken_cli_is_stopped_early_its_cause_shown_and_the_exit_status_says_so(
    repo: Path, tmp_path: Path, claude: str, fp: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    fp.register([claude, fp.any()], returncode=1, stderr="Error: model 'nope' not found\n")
    code = index(repo, tmp_path)
    out, err = capsys.readouterr()
    assert code == ExitStatus.PARTIAL == 6
    assert fp.call_count([claude, fp.any()]) == ALIKE_FAILURES * 2  # not every unit, twice each
    assert f"stopped after {ALIKE_FAILURES} units failed alike" in out
    assert "cause: LlmError: claude exited with status 1: Error: model 'nope' not found" in out
    assert "exited with status 1: Error: model 'nope' not found" in err  # scripts read stderr


def test_invalid_json_is_a_shown_cause(
    repo: Path, tmp_path: Path, claude: str, fp: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    fp.register([claude, fp.any()], stdout="Sorry, I can't do that.\n")
    assert index(repo, tmp_path) == ExitStatus.PARTIAL
    assert "cause: LlmError: claude printed no JSON result: Sorry, I can't do that." in capsys.readouterr().out


def _timed_out(process: Any) -> None:
    raise subprocess.TimeoutExpired(process.args, 1)


@pytest.mark.parametrize(("flag", "env", "shown"), [(["--llm-timeout", "7"], None, "7s"),
                                                    ([], "9.5", "9.5s"), ([], None, "300s")])
def test_llm_timeout_comes_from_the_flag_or_the_environment(
    repo: Path, tmp_path: Path, claude: str, fp: Any, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, flag: list[str], env: str | None, shown: str,
) -> None:
    if env:
        monkeypatch.setenv("ORBITKB_LLM_TIMEOUT", env)
    fp.register([claude, fp.any()], callback=_timed_out)
    assert index(repo, tmp_path, *flag) == ExitStatus.PARTIAL
    assert f"claude did not answer within {shown}" in capsys.readouterr().out


def test_a_bad_llm_timeout_is_a_usage_error(repo: Path, tmp_path: Path, claude: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORBITKB_LLM_TIMEOUT", "soon")
    assert index(repo, tmp_path) == ExitStatus.USAGE
    with pytest.raises(SystemExit) as exc:
        index(repo, tmp_path, "--llm-timeout", "0")
    assert exc.value.code == 2
