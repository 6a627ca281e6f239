"""The task corpus: tasks with the services a developer would really change, loaded from
benchmarks/change_surface_tasks.json, plus whether a task names one of its services (the
vocabulary split the report shows)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from attrs import frozen

from orbitkb.domain.model import Service
from orbitkb.domain.text import normalize_name, stem, words

BENCH = Path(__file__).resolve().parent.parent
TASKS_FILE = BENCH / "change_surface_tasks.json"
GENERIC = {"api", "service", "svc", "app", "server"}


@frozen
class Task:
    id: str
    system: str
    task: str
    expected: tuple[str, ...]
    why: str = ""


def load_tasks(path: Path = TASKS_FILE, system: str | None = None) -> list[Task]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = [
        Task(t["id"], t["system"], t["task"], tuple(sorted(t["expected"])), t.get("why", ""))
        for t in data["tasks"]
    ]
    return [t for t in out if system is None or t.system == system]


def system_paths(path: Path = TASKS_FILE) -> dict[str, Path]:
    data = json.loads(path.read_text(encoding="utf-8"))
    root = BENCH.parent
    return {name: root / spec["path"] for name, spec in data.get("systems", {}).items()}


def _name_stems(name: str) -> set[str]:
    return {stem(w) for w in normalize_name(name).split("-") if w and w not in GENERIC}


def named_services(task: str, services: Iterable[Service]) -> list[str]:
    """Services whose name or an alias appears in the task (every distinctive word of it)."""
    stems = {stem(w) for w in words(task, keep_stopwords=True)}
    out = []
    for s in services:
        for n in (s.name, *s.aliases):
            parts = _name_stems(n)
            if parts and parts <= stems:
                out.append(s.name)
                break
    return sorted(out)
