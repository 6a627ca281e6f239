"""Running a headless LLM CLI: prompt on stdin, a fresh temporary working directory, a timeout,
failures turned into LlmError / LlmUnavailable messages that name the fix, and every running
child known to a ``Children`` registry so an interrupted run can stop them at once."""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Mapping, Sequence

from attrs import frozen

from orbitkb.domain.errors import LlmCancelled, LlmError, LlmUnavailable
from orbitkb.llm_cli.backends import CliInfo

#: Prompts are built with per-section caps; anything this large is a bug upstream, not input.
MAX_PROMPT_BYTES = 2_000_000
#: How much of a CLI's stderr/stdout to quote in an error message.
QUOTE_CHARS = 400
TAIL_CHARS = 2_000

#: Seconds a terminated child gets to exit before it is killed.
TERMINATE_GRACE = 1.0

#: Output that means "installed but not signed in" — the fix is a login, not a retry.
_AUTH_PATTERNS = re.compile(
    r"not logged in|please run /login|please log ?in|login required|invalid api key|"
    r"authentication[_ ](?:error|failed)|unauthorized|\b401\b|missing (?:environment variable|api key)|"
    r"oauth token (?:has )?expired|credit balance is too low",
    re.IGNORECASE,
)


@frozen
class Finished:
    stdout: str
    stderr: str
    returncode: int


def quote(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= QUOTE_CHARS else one_line[: QUOTE_CHARS - 1] + "…"


def quote_tail(text: str) -> str:
    """The end of a long output, where a CLI prints the error that stopped it."""
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= QUOTE_CHARS else "…" + one_line[-(QUOTE_CHARS - 1) :]


def looks_unauthenticated(*texts: str) -> bool:
    return any(_AUTH_PATTERNS.search(t or "") for t in texts)


class Children:
    """The CLI processes a backend is running. ``cancel`` terminates them (then kills what is still
    alive after ``TERMINATE_GRACE``) and makes every later ``run_cli`` raise LlmCancelled."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[subprocess.Popen[bytes]] = set()
        self.cancelled = False

    def add(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.add(proc)
            cancelled = self.cancelled
        if cancelled:  # cancel() ran between the Popen and this registration
            _stop(proc)

    def discard(self, proc: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._live.discard(proc)

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            live = list(self._live)
        for proc in live:
            _terminate(proc)
        for proc in live:
            _stop(proc)


def _terminate(proc: subprocess.Popen[bytes]) -> None:
    try:
        proc.terminate()
    except OSError:
        pass  # already gone


def _stop(proc: subprocess.Popen[bytes]) -> None:
    _terminate(proc)
    try:
        proc.wait(TERMINATE_GRACE)
    except subprocess.TimeoutExpired:
        try:
            proc.kill()
        except OSError:
            pass


def _reap(proc: subprocess.Popen[bytes]) -> None:
    """Kill a child that overran its timeout and collect it (as subprocess.run does)."""
    try:
        proc.kill()
        proc.communicate()
    except (OSError, subprocess.SubprocessError):
        pass


def run_cli(
    info: CliInfo,
    argv: Sequence[str],
    prompt: str,
    *,
    cwd: str,
    env: Mapping[str, str],
    timeout: float,
    children: Children | None = None,
) -> Finished:
    data = prompt.encode("utf-8", "replace")
    if len(data) > MAX_PROMPT_BYTES:
        raise LlmError(
            f"prompt of {len(data)} bytes exceeds the {MAX_PROMPT_BYTES}-byte limit for {info.name}"
        )
    children = children or Children()
    if children.cancelled:
        raise LlmCancelled(f"{info.name} was not started: the run was interrupted")
    proc: subprocess.Popen[bytes] | None = None
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=dict(env),
        )
        children.add(proc)
        out, err = proc.communicate(data, timeout=timeout)
    except FileNotFoundError:
        raise LlmUnavailable(f"the {info.name} CLI was not found on PATH", hint=info.install_hint) from None
    except PermissionError as exc:
        raise LlmUnavailable(
            f"the {info.name} CLI could not be started: {exc}", hint=info.install_hint
        ) from None
    except subprocess.TimeoutExpired:
        if proc is not None:
            _reap(proc)
        raise LlmError(
            f"{info.name} did not answer within {timeout:g}s",
            hint="raise --llm-timeout (or ORBITKB_LLM_TIMEOUT), lower --jobs, or retry later",
        ) from None
    finally:
        if proc is not None:
            children.discard(proc)
    if children.cancelled:
        raise LlmCancelled(f"{info.name} was stopped: the run was interrupted")
    return Finished(_text(out), _text(err), proc.returncode)


def fail_exit(info: CliInfo, done: Finished, detail: str | None = None) -> LlmError:
    """The error for a run that failed: unavailable when the output says nobody is logged in."""
    message = detail or quote_tail(done.stderr) or quote_tail(done.stdout) or "no output"
    # Only the tail: a CLI may echo the prompt (repository text) at the start of its stderr.
    if looks_unauthenticated(detail or "", done.stderr[-TAIL_CHARS:]):
        return LlmUnavailable(
            f"{info.name} is not logged in or its credentials were refused: {message}", hint=info.login_hint
        )
    return LlmError(f"{info.name} exited with status {done.returncode}: {message}")


def _text(raw: bytes | str | None) -> str:
    if raw is None:
        return ""
    return raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
