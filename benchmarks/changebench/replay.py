"""Git-history replay: copy an example system into a fresh git repository, commit the history of
history.py on top, then for each commit index the PARENT (IndexRequest(commit=parent)), ask
find_change_surface with the commit message, and verify the answer against the real diff
(verify_change_surface since=parent until=commit). The truth is what the commit touched."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .baseline import Bm25, service_texts
from .corpus import Task
from .history import HISTORY, Commit
from .runner import evaluate, index, predict

DROP = ("ground_truth.json",)  # the benchmark's answer key is not part of a real repository


def _git(repo: Path, *args: str, stdin: bytes | None = None, n: int = 0) -> bytes:
    stamp = f"2024-01-{1 + n:02d}T12:00:00+00:00"
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "dev",
        "GIT_AUTHOR_EMAIL": "dev@shopfront.invalid",
        "GIT_COMMITTER_NAME": "dev",
        "GIT_COMMITTER_EMAIL": "dev@shopfront.invalid",
        "GIT_AUTHOR_DATE": stamp,
        "GIT_COMMITTER_DATE": stamp,
    }
    return subprocess.run(
        ["git", *args], cwd=repo, input=stdin, check=True, capture_output=True, env=env
    ).stdout


def apply(repo: Path, commit: Commit) -> None:
    for e in commit.edits:
        path = repo / e.file
        if e.old is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(e.new, encoding="utf-8")
            continue
        text = path.read_text(encoding="utf-8")
        if text.count(e.old) != 1:
            raise ValueError(f"{commit.message!r}: expected one occurrence in {e.file} of {e.old[:60]!r}")
        path.write_text(text.replace(e.old, e.new), encoding="utf-8")


def build_history(
    source: Path, dest: Path, history: Sequence[Commit] = HISTORY
) -> list[tuple[str, str, str]]:
    """Create the repository; returns (parent sha, commit sha, message) per commit of history."""
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns(*DROP, "__pycache__", "node_modules"))
    _git(dest, "init", "-q", "-b", "main")
    _git(dest, "add", "-A")
    _git(dest, "commit", "-qm", "Import shopfront")
    out = []
    for n, c in enumerate(history, 1):
        parent = _git(dest, "rev-parse", "HEAD").decode().strip()
        apply(dest, c)
        _git(dest, "add", "-A")
        _git(dest, "commit", "-qm", c.message, n=n)
        out.append((parent, _git(dest, "rev-parse", "HEAD").decode().strip(), c.message))
    return out


def files_at(repo: Path, commit: str) -> list[tuple[str, bytes]]:
    data = _git(repo, "archive", "--format=tar", commit)
    out = []
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for m in tar.getmembers():
            if m.isfile():
                f = tar.extractfile(m)
                if f is not None:
                    out.append((m.name, f.read()))
    return sorted(out)


def replay(
    app: Any,
    repo: Path,
    commits: Sequence[tuple[str, str, str]],
    name: str = "shopfront-replay",
    progress: Any = None,
) -> list[dict[str, Any]]:
    rows = []
    for n, (parent, sha, message) in enumerate(commits, 1):
        index(app, str(repo), name, commit=parent)
        answer = predict(app, message, record=True)
        v = app.use_cases.verify_change_surface()(answer["run_id"], name, parent, sha)
        services = app.adapters.store().list_services(name)
        bm25 = Bm25(service_texts(files_at(repo, parent), {s.name: s.root_dir for s in services}))
        task = Task(f"replay-{n:02d}", name, message, tuple(v.actual))
        row = evaluate(task, answer, services, bm25)
        # the use case's own verification must agree with the benchmark's scoring
        row["verified"] = {
            "precision": v.precision,
            "recall": v.recall,
            "predicted": list(v.predicted),
            "actual": list(v.actual),
            "unowned_files": list(v.unowned_files),
        }
        row["commit"] = sha
        rows.append(row)
        if progress:
            progress(row)
    return rows
