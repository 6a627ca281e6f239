"""Whole-process time of read-only CLI commands on a 40-service database (issue 14).

    uv run python benchmarks/cli_startup.py [--services 40 --files 800] [--runs 15] [--bin PATH]

Indexes the synthetic system (benchmarks/synth.py, cached under benchmarks/out/) once into a
database under benchmarks/out/cli_startup/, then runs `orbitkb --version`, `orbitkb list` and
`orbitkb describe SERVICE` as fresh processes (the console script of this environment, or
``--bin``), median and best wall time of ``--runs``; also reports which heavy modules a `list`
imports and whether the installed orbitkb packages carry compiled bytecode. Target: `list`
<= 0.25 s on a fresh install whose bytecode the installer compiled (UV_COMPILE_BYTECODE=1).

``--instructions`` also counts the instructions each command executes (valgrind's callgrind, when
installed): unlike wall or CPU time, the count does not move with the load of a shared machine,
so two trees can be compared there; ``python -c pass`` is shown as the floor.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402

TARGET_S = 0.25
HEAVY = ("pydantic", "starlette", "mcp", "yaml", "fastembed", "numpy", "orbitkb.analysis", "onnxruntime")
_PROBE = """
import sys
sys.argv = ["orbitkb", *sys.argv[1:]]
try:
    from orbitkb.cli.main import main
    main(sys.argv[1:])
finally:
    print("HEAVY:" + ",".join(m for m in {heavy!r} if m in sys.modules), file=sys.stderr)
"""


def _orbitkb(explicit: str | None) -> str:
    found = explicit or shutil.which("orbitkb", path=os.path.dirname(sys.executable)) or shutil.which("orbitkb")
    if not found:
        raise SystemExit("no orbitkb command found: run inside the workspace (uv run) or pass --bin")
    return found


def _time(argv: list[str], runs: int) -> tuple[float, float, float]:
    """Median and best wall time, and median CPU time (user + system: what a loaded machine's
    waiting for a core does not inflate)."""
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), min(times), statistics.median(cpu)


def _instructions(argv: list[str]) -> int | None:
    """Instructions the command executes (callgrind's "I refs"); None without valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) if found else None


def _bytecode_compiled(python: str) -> str:
    code = ("import pathlib, orbitkb.cli.main as m; c = pathlib.Path(m.__file__).parent / '__pycache__'; "
            "print('yes' if any(c.glob('main.*.pyc')) else 'no')")
    return subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=40)
    ap.add_argument("--files", type=int, default=800)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--bin", help="the orbitkb command to time (default: this environment's)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions each command executes (needs valgrind)")
    args = ap.parse_args(argv)
    orbitkb = _orbitkb(args.bin)
    folder, _expected = ensure_system(args.services, args.files, args.seed)
    db = OUT_DIR / "cli_startup" / f"synth-{args.services}-{args.files}-{args.seed}.db"
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline",
                        "--embedder", "off"], check=True, stdout=subprocess.DEVNULL)
    listed = subprocess.run([orbitkb, "list", "--db", str(db), "--json"], check=True, capture_output=True,
                            text=True).stdout
    import json

    service = json.loads(listed)["services"][0]["name"]
    commands = {
        "orbitkb --version": [orbitkb, "--version"],
        "orbitkb list": [orbitkb, "list", "--db", str(db)],
        f"orbitkb describe {service}": [orbitkb, "describe", service, "--db", str(db)],
    }
    python = str(Path(orbitkb).parent / "python")  # the interpreter of the timed install
    heavy = subprocess.run([python, "-c", _PROBE.format(heavy=HEAVY), "list", "--db", str(db)],
                           capture_output=True, text=True).stderr
    print(f"command: {orbitkb}; database: {db} ({args.services} services); bytecode compiled: "
          f"{_bytecode_compiled(python)}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("| command | median s | best s | median CPU s |")
    print("|---|---|---|---|")
    for label, argv_ in commands.items():
        median, best, cpu = _time(argv_, args.runs)
        mark = (" ✔" if median <= TARGET_S else " ✘") if label == "orbitkb list" else ""
        print(f"| `{label}` | {median:.3f}{mark} | {best:.3f} | {cpu:.3f} |")
    if args.instructions:
        counted = {"python -c pass": [python, "-c", "pass"], **commands}
        print("| command | instructions executed (millions) |")
        print("|---|---|")
        for label, argv_ in counted.items():
            count = _instructions(argv_)
            print(f"| `{label}` | {'valgrind not installed' if count is None else f'{count / 1e6:,.0f}'} |")
    line = next((x for x in heavy.splitlines() if x.startswith("HEAVY:")), "HEAVY:?")
    print(f"heavy modules imported by `orbitkb list`: {line[6:] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
