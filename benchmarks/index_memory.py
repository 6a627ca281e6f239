"""Peak memory of a cold `orbitkb index` of the 1,000-service synthetic system (issue 14).

    uv run python benchmarks/index_memory.py [--services 1000 --files-per-service 20] [--bin PATH] [--runs 1]
    uv run python benchmarks/index_memory.py --bin OLD_CHECKOUT/.venv/bin/orbitkb   # the same input, another tree

Generates the system once (benchmarks/synth.py, the same folder `mcp_latency.py --sizes` uses,
under benchmarks/out/mcp/), then runs a cold `orbitkb index FOLDER --backend offline --embedder off`
into a fresh database as a child process (the console script of this environment, or ``--bin`` —
another install or an older checkout's `.venv/bin/orbitkb`, so two trees index the same input).
While it runs, /proc is read every ``--interval`` seconds: the indexing process's peak resident
set (its ``VmHWM``, what the issue calls peak index memory: parse results held by the main
process), and the peak proportional set size of the whole process tree (the process plus its parse
and link workers; PSS counts pages a fork shares with its parent once). Also wall and CPU time
(``RUSAGE_CHILDREN``). Prints a Markdown table with the load average.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from benchlib.corpus import OUT_DIR, ensure_system  # noqa: E402


def _status_kb(pid: int, field: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _tree(pid: int) -> list[int]:
    """The process and its descendants (each task's children as /proc lists them)."""
    out, todo = [], [pid]
    while todo:
        one = todo.pop()
        out.append(one)
        try:
            for task in os.listdir(f"/proc/{one}/task"):
                with open(f"/proc/{one}/task/{task}/children", encoding="ascii") as fh:
                    todo.extend(int(x) for x in fh.read().split())
        except OSError:
            continue
    return out


def measure(argv: list[str], interval: float) -> dict[str, float]:
    """Peak VmHWM of the process, peak PSS of its tree, wall and CPU seconds of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    hwm = tree = 0
    while proc.poll() is None:
        hwm = max(hwm, _status_kb(proc.pid, "VmHWM:") or 0)
        tree = max(tree, sum(_pss_kb(p) for p in _tree(proc.pid)))
        time.sleep(interval)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"index failed ({proc.returncode}): {proc.stderr.read() if proc.stderr else ''}")
    return {"main_peak_rss_mb": hwm / 1024, "tree_peak_pss_mb": tree / 1024, "wall_s": wall,
            "cpu_s": after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime,
            "largest_process_rss_mb": after.ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--services", type=int, default=1000)
    ap.add_argument("--files-per-service", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between two reads of /proc")
    ap.add_argument("--bin", help="the orbitkb command to run (default: this environment's)")
    ap.add_argument("--cache-dir", type=Path, default=OUT_DIR / "mcp",
                    help="where the synthetic system is generated (default: mcp_latency.py's folder)")
    args = ap.parse_args(argv)
    if not sys.platform.startswith("linux"):
        raise SystemExit("index_memory.py reads /proc: Linux only")
    orbitkb = args.bin or shutil.which("orbitkb", path=os.path.dirname(sys.executable)) or shutil.which("orbitkb")
    if not orbitkb:
        raise SystemExit("no orbitkb command found: run inside the workspace (uv run) or pass --bin")
    folder, _expected = ensure_system(args.services, args.services * args.files_per_service, args.seed,
                                      args.cache_dir)
    rows = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="orbitkb-index-memory-") as tmp:
            db = Path(tmp) / "kb.db"
            rows.append(measure([orbitkb, "index", str(folder), "--db", str(db), "--backend", "offline",
                                 "--embedder", "off"], args.interval))
    print(f"command: {orbitkb}; system: {folder} ({args.services} services); runs: {args.runs}")
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("| measure | median | min | max |")
    print("|---|---|---|---|")
    for key, label in (("main_peak_rss_mb", "peak RSS of `orbitkb index`, MB"),
                       ("tree_peak_pss_mb", "peak PSS with its workers, MB"),
                       ("largest_process_rss_mb", "largest process's peak RSS (getrusage), MB"),
                       ("wall_s", "wall s"), ("cpu_s", "CPU s (all processes)")):
        values = [r[key] for r in rows]
        print(f"| {label} | {statistics.median(values):.1f} | {min(values):.1f} | {max(values):.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
