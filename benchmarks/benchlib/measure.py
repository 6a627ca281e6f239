"""The measurements of index_speed.py, run in a fresh child process so peak memory is the
indexer's own: cold index, no-change re-index (in process and as a fresh `orbitkb index`),
re-index after touching one file, stage timings, extraction recall, and an optional profile."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import recall
from benchlib.timing import StageTimer, Timed

REPO = "synthetic"
NOISE_DIRS = ("node_modules", "target", "vendor", "dist", "build", "__pycache__", "tests", "test")
COMMENT = {".py": "# touched by the benchmark\n", ".go": "// touched by the benchmark\n"}


def build(db: str, workers: int | None = None) -> tuple[Any, Timed, Timed]:
    from dependency_injector import providers

    from orbitkb.bootstrap import Settings, build_application

    app = build_application(Settings(db_path=db, backend="offline", embedder="off"))
    analyzer = app.adapters.analyzer()
    if workers is not None:
        from orbitkb.analysis import StaticCodeAnalyzer

        analyzer = StaticCodeAnalyzer(workers=workers)
    timed_analyzer = Timed(analyzer, ("analyze",))
    store = app.adapters.store()
    timed_store = Timed(
        store,
        (
            "replace_repository_facts",
            "list_indexed_files",
            "list_services",
            "list_calls_to_target",
            "update_calls",
            "add_architecture_run",
        ),
    )
    app.adapters.analyzer.override(providers.Object(timed_analyzer))
    app.adapters.store.override(providers.Object(timed_store))
    return app, timed_analyzer, timed_store


def run_index(app: Any, folder: Path, analyzer: Timed, store: Timed) -> dict[str, Any]:
    from orbitkb.domain.usecases.indexing import IndexRequest

    analyzer.reset()
    store.reset()
    stages = StageTimer()
    t0 = time.perf_counter()
    result = app.use_cases.index_repository()(IndexRequest(path=str(folder), repository_name=REPO), stages)
    seconds = time.perf_counter() - t0
    analyze = analyzer.seconds.get("analyze", 0.0)
    write = store.seconds.get("replace_repository_facts", 0.0)
    return {
        "seconds": round(seconds, 3),
        "files_total": result.files_total,
        "files_changed": result.files_changed,
        "files_parsed": result.files_parsed,
        "services": len(result.services),
        "gaps": len(result.gaps),
        "breakdown": {
            "analyze": round(analyze, 3),
            "store_write": round(write, 3),
            "hooks_and_rest": round(seconds - analyze - write, 3),
            "store_calls": {k: round(v, 3) for k, v in sorted(store.seconds.items())},
        },
        "stages": stages.spans(),
    }


def _touch_target(expected: dict, folder: Path) -> Path:
    first = sorted(expected["services"], key=lambda s: s["name"])[0]
    root = folder / first["root_dir"]
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in NOISE_DIRS)
        for name in sorted(files):
            if name.endswith((".py", ".go", ".java", ".ts", ".js")) and "test" not in name:
                return Path(dirpath) / name
    raise SystemExit(f"no source file under {root}")


def cli_reindex_seconds(folder: Path, db: str) -> float:
    exe = Path(sys.executable).parent / "orbitkb"
    env = {**os.environ, "ORBITKB_EMBEDDER": "off"}
    t0 = time.perf_counter()
    subprocess.run(
        [
            str(exe),
            "index",
            str(folder),
            "--repository-name",
            REPO,
            "--db",
            db,
            "--backend",
            "offline",
            "--json",
        ],
        check=True,
        capture_output=True,
        env=env,
    )
    return round(time.perf_counter() - t0, 3)


def measure(folder: Path, expected: dict, workdir: Path, cli: bool = True) -> dict[str, Any]:
    db = str(workdir / "bench.db")
    app, analyzer, store = build(db)
    out: dict[str, Any] = {}
    out["cold"] = run_index(app, folder, analyzer, store)
    out["peak_rss_mb"] = {
        "self": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "parse_workers_max": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }
    files = app.adapters.store().list_indexed_files(REPO)
    out["indexed_bytes"] = sum(f.size for f in files)
    out["nochange"] = run_index(app, folder, analyzer, store)
    if cli:
        out["nochange_cli_seconds"] = cli_reindex_seconds(folder, db)
    target = _touch_target(expected, folder)
    original = target.read_bytes()
    try:
        target.write_bytes(original + COMMENT.get(target.suffix, "// touched by the benchmark\n").encode())
        out["touch_one"] = run_index(app, folder, analyzer, store)
        out["touched_file"] = str(target.relative_to(folder))
    finally:
        target.write_bytes(original)
    out["recall"] = recall.measure(app.adapters.store(), expected)
    out["misses"] = {
        k: recall.misses(app.adapters.store(), expected, k, 8)
        for k in ("apis", "calls", "channels", "entities")
    }
    return out


def child_main(folder: str, expected_path: str, result_path: str, cli: bool) -> int:
    expected = json.loads(Path(expected_path).read_text())
    with tempfile.TemporaryDirectory(prefix="orbitkb-bench-") as tmp:
        result = measure(Path(folder), expected, Path(tmp), cli)
    Path(result_path).write_text(json.dumps(result, indent=1, default=str))
    return 0
