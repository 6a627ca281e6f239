"""One benchmark run: the task corpus on each system and the git-history replay, for one
retrieval mode (keyword: embedder off; hybrid: the packaged embedder), each system in its own
database so that services of one system never answer tasks of another."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .baseline import Bm25, files_on_disk, service_texts
from .corpus import TASKS_FILE, Task, load_tasks, system_paths
from .replay import build_history, replay
from .runner import evaluate, index, make_app, predict, summarize

EMBEDDER = {"keyword": "off", "hybrid": "auto"}

Progress = Callable[[str], None]


def hybrid_available() -> bool:
    """True when the packaged local embedder loads (no network)."""
    with tempfile.TemporaryDirectory() as d:
        app = make_app(str(Path(d) / "probe.db"), "auto")
        return app.adapters.embedder() is not None


def run_tasks(
    app: Any, repo: str, path: Path, tasks: list[Task], progress: Progress | None = None
) -> list[dict[str, Any]]:
    services = app.adapters.store().list_services(repo)
    bm25 = Bm25(service_texts(files_on_disk(str(path)), {s.name: s.root_dir for s in services}))
    rows = []
    for t in tasks:
        row = evaluate(t, predict(app, t.task), services, bm25)
        rows.append(row)
        if progress:
            progress(f"  {t.id} recall {row['recall']:.2f} precision {row['precision']:.2f}")
    return rows


def run_corpus(
    mode: str,
    workdir: Path,
    tasks_file: Path = TASKS_FILE,
    progress: Progress | None = None,
    extra_systems: dict[str, tuple[Path, list[Task]]] | None = None,
) -> dict[str, Any]:
    systems = {name: (path, load_tasks(tasks_file, name)) for name, path in system_paths(tasks_file).items()}
    systems.update(extra_systems or {})
    rows, per_system = [], {}
    for name, (path, tasks) in sorted(systems.items()):
        if not tasks:
            continue
        app = make_app(str(workdir / f"{mode}-{name}.db"), EMBEDDER[mode])
        if progress:
            progress(f"[{mode}] indexing {name} ({path})")
        index(app, str(path), name)
        sys_rows = run_tasks(app, name, path, tasks, progress)
        per_system[name] = summarize(sys_rows)
        rows += sys_rows
    return {"summary": summarize(rows), "per_system": per_system, "rows": rows}


def run_replay(mode: str, workdir: Path, source: Path, progress: Progress | None = None) -> dict[str, Any]:
    repo = workdir / f"replay-{mode}" / "shopfront"
    commits = build_history(source, repo)
    app = make_app(str(workdir / f"{mode}-replay.db"), EMBEDDER[mode])
    if progress:
        progress(f"[{mode}] replaying {len(commits)} commits")
    rows = replay(
        app,
        repo,
        commits,
        progress=(lambda r: progress(f"  {r['id']} recall {r['recall']:.2f} precision {r['precision']:.2f}"))
        if progress
        else None,
    )
    return {"summary": summarize(rows), "rows": rows}
