"""Ctrl-C and SIGTERM stop LLM work: the real `orbitkb index` with a slow fake `claude` (a real
process on PATH), a real signal, exit 130 within 2 s, no child left running, no unit started
after the signal, every answer received before it kept, and the run marked interrupted at once."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import ORBITKB

FAKE_CLAUDE = """#!{python}
# A fake `claude -p`: the first $FAKE_FAST calls answer at once, the others hang. Logs every start
# and every answer (with the prompt's hash) to $FAKE_LOG.
import fcntl, hashlib, json, os, sys, time
from orbitkb.domain.fakes.llm import synthesize

prompt = sys.stdin.read()
schema = json.loads(sys.argv[sys.argv.index("--json-schema") + 1])
digest = hashlib.sha256(prompt.encode()).hexdigest()[:16]
with open(os.environ["FAKE_LOG"], "a+") as log:
    fcntl.flock(log, fcntl.LOCK_EX)
    log.seek(0)
    n = sum(1 for line in log if line.startswith("start"))
    log.write(f"start {{os.getpid()}} {{digest}}\\n")
if n >= int(os.environ.get("FAKE_FAST", "1000")):
    time.sleep(60)
print(json.dumps({{"type": "result", "subtype": "success", "is_error": False, "result": "",
                  "total_cost_usd": 0.001, "structured_output": synthesize(schema)}}))
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write(f"answered {{os.getpid()}} {{digest}}\\n")
"""

ROUTES = "\n\n".join(f'@app.get("/r{i}")\ndef h{i}():\n    return {{}}\n' for i in range(8))


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    svc = tmp_path / "shop" / "orders"
    svc.mkdir(parents=True)
    (svc / "pyproject.toml").write_text('[project]\nname = "orders"\nversion = "0.1.0"\ndependencies = ["fastapi"]\n')
    (svc / "main.py").write_text("from fastapi import FastAPI\n\napp = FastAPI()\n\n\n" + ROUTES)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "claude"
    fake.write_text(FAKE_CLAUDE.format(python=sys.executable))
    fake.chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ.get('PATH', '')}", "ORBITKB_EMBEDDER": "off",
           "FAKE_LOG": str(tmp_path / "fake.log"), "ORBITKB_DB": str(tmp_path / "kb.db")}
    env.pop("ORBITKB_BACKEND", None)
    return svc.parent, env


def log_lines(env: dict[str, str], kind: str) -> list[tuple[int, str]]:
    path = Path(env["FAKE_LOG"])
    lines = path.read_text().splitlines() if path.exists() else []
    return [(int(p), d) for k, p, d in (line.split() for line in lines) if k == kind]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as f:  # a zombie is dead, just not reaped by its parent yet
        return f.read().split(") ")[-1][0] != "Z"


def start_index(repo: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    proc = subprocess.Popen([ORBITKB, "index", str(repo), "--backend", "claude", "--jobs", "2"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(log_lines(env, "start")) < 3:  # one answered, two hanging
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the fake CLI was never started"
        time.sleep(0.05)
    time.sleep(0.3)
    return proc


def stop(proc: subprocess.Popen[str], sig: int) -> tuple[float, str]:
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill()
    return time.monotonic() - sent, err


def last_run_status(env: dict[str, str]) -> str:
    with sqlite3.connect(env["ORBITKB_DB"]) as db:
        tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
        table = next(t for t in tables if "run" in t and "index" in t)
        return str(db.execute(f"select status from {table} order by rowid desc limit 1").fetchone()[0])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_signal_stops_llm_work_at_once_and_keeps_what_finished(
    setup: tuple[Path, dict[str, str]], sig: int
) -> None:
    repo, env = setup
    proc = start_index(repo, {**env, "FAKE_FAST": "1"})
    started_before = log_lines(env, "start")
    took, err = stop(proc, sig)

    assert proc.returncode == 130, err
    assert took < 2, f"took {took:.1f}s to stop"
    assert "interrupted" in err
    assert log_lines(env, "start") == started_before, "no unit may start after the signal"
    hanging = [pid for pid, _ in started_before[1:]]
    assert not [pid for pid in hanging if alive(pid)], "running CLI children are terminated"
    assert last_run_status(env) == "interrupted"

    answered = {d for _, d in log_lines(env, "answered")}
    assert len(answered) == 1
    Path(env["FAKE_LOG"]).write_text("")
    done = subprocess.run([ORBITKB, "index", str(repo), "--backend", "claude", "--json"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run"]["status"] == "ok"
    resent = {d for _, d in log_lines(env, "start")}
    assert resent and not resent & answered, "the answer received before the signal is not paid twice"
