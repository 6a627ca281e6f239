"""Runs find_change_surface on the mined tasks: index each clone at the task's parent commit (one
cached database per repository and parent), ask with the task text, map every predicted orbitkb
service to a truth service through its root folder, and score it next to the baselines."""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from changebench.baseline import MAX_FILE, Bm25, service_texts
from changebench.corpus import Task
from changebench.metrics import Scored, macro, score
from changebench.runner import PREDICTED_TIERS, evaluate, index, make_app, predict, summarize

from . import gitio
from .truthmap import ServiceMap

Progress = Callable[[str], None]
BASELINES = ("baseline_all", "baseline_bm25_top1", "baseline_bm25_top2", "baseline_previous")


def _db(cache: Path, task: dict[str, Any], embedder: str) -> Path:
    return cache / f"{task['repository']}@{task['parent'][:12]}.{embedder}.db"


@cache
def analysis_version() -> str:
    """The analysis version of this tree, asked of the analyzer the composition root builds (the
    CodeAnalyzer port's ``version``: pipeline, each stack, the cache-keyed tables)."""
    with tempfile.TemporaryDirectory() as d:
        return str(make_app(str(Path(d) / "probe.db"), "off").adapters.analyzer().version)


def stale(marker: Path, analysis: str) -> bool:
    """A cached database is stale when its marker does not record the analysis version of this tree
    (the CodeAnalyzer port's ``version``): facts of older analyzers would be scored, and fitted on
    (realhistory/fit.py), as if they were today's."""
    if not marker.exists():
        return True
    return json.loads(marker.read_text(encoding="utf-8")).get("analysis") != analysis


def indexed_app(
    clone: Path, task: dict[str, Any], embedder: str, cache: Path, reindex: bool, stale_ok: bool = False
) -> tuple[Any, dict]:
    """The application on this task's database, indexing the parent commit unless cached by the
    same analysis version (``stale_ok``: by any, to compare rankings on one fixed index)."""
    db = _db(cache, task, embedder)
    marker = Path(str(db) + ".json")
    analysis = analysis_version()
    if reindex or (stale(marker, analysis) and not (stale_ok and marker.exists())):
        for suffix in ("", "-wal", "-shm", ".json"):
            Path(str(db) + suffix).unlink(missing_ok=True)
        cache.mkdir(parents=True, exist_ok=True)
        app = make_app(str(db), embedder)
        started = time.monotonic()
        result = index(app, str(clone), task["repository"], commit=task["parent"])
        info = {
            "parent": task["parent"],
            "analysis": analysis,
            "files_total": result.files_total,
            "services": list(result.services),
            "gaps": len(result.gaps),
            "index_seconds": round(time.monotonic() - started, 2),
        }
        marker.write_text(json.dumps(info) + "\n", encoding="utf-8")
        return app, info
    return make_app(str(db), embedder), json.loads(marker.read_text(encoding="utf-8"))


def baselines(
    clone: Path, parent: str, smap: ServiceMap, text: str, expected: Sequence[str], present: set[str]
) -> dict[str, Any]:
    """Predict every service present at the parent; bm25 over each service's files, top-1 and top-2;
    and, without reading the task at all, the services the parent commit itself changed (work goes
    on where it was: a floor any text-reading method must clear to say the text helped)."""
    files = gitio.files_at(clone, parent, lambda p: smap.owner(p) is not None, MAX_FILE)
    texts: dict[str, str] = {}
    for name in sorted(present):
        texts.update(service_texts([(p, d) for p, d in files if smap.owner(p) == name], {name: "."}))
    bm25 = Bm25(texts)
    out = {}
    for key, predicted in (
        ("baseline_all", sorted(present)),
        ("baseline_bm25_top1", bm25.top(text, 1)),
        ("baseline_bm25_top2", bm25.top(text, 2)),
        ("baseline_previous", sorted({o for p in gitio.changed(clone, parent) if (o := smap.owner(p))})),
    ):
        s = score(predicted, expected)
        out[key] = {"predicted": sorted(predicted), "precision": s.precision, "recall": s.recall, "f1": s.f1}
    return out


def run_task(app: Any, info: dict, clone: Path, smap: ServiceMap, task: dict[str, Any]) -> dict[str, Any]:
    answer = predict(app, task["task"])
    services = app.adapters.store().list_services(task["repository"])
    present = smap.present(p for p, _, _ in gitio.tree(clone, task["parent"]))
    mapping = smap.map_roots({s.name: s.root_dir for s in services}, present)
    findings = [
        {**f, "orbitkb_service": f["service"], "service": mapping.get(f["service"]) or f"?{f['service']}"}
        for f in answer["findings"]
    ]
    truth_services = [SimpleNamespace(name=n, aliases=smap.aliases(n)) for n in smap.services]
    t = Task(task["id"], task["repository"], task["task"], tuple(task["expected"]))
    row = evaluate(t, {**answer, "findings": findings}, truth_services, None)
    row.update(
        {
            "repository": task["repository"],
            "split": task["split"],
            "url": task["url"],
            "parent": task["parent"],
            "unmapped": sorted(n for n, m in mapping.items() if m is None),
            "not_in_model": sorted(set(task["expected"]) - {m for m in mapping.values() if m}),
            "model_services": len(services),
            "index": info,
        }
    )
    row.update(baselines(clone, task["parent"], smap, task["task"], task["expected"], present))
    return row


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The change-surface summary (changebench.runner.summarize) plus the baselines, empty answers,
    answer sizes and how often a >= 0.8 confident finding is right."""
    if not rows:
        return {"tasks": 0}
    out = summarize(rows)
    for key in BASELINES:
        out[key] = macro(
            [Scored(r[key]["precision"], r[key]["recall"], r[key]["f1"], (), (), ()) for r in rows]
        )
    n = len(rows)
    high = [
        f["service"] in r["expected"]
        for r in rows
        for f in r["findings"]
        if f["tier"] in PREDICTED_TIERS and f["confidence"] >= 0.8
    ]
    out.update(
        {
            "empty_answers": sum(1 for r in rows if not r["predicted"]),
            "predicted_per_task": round(sum(len(r["predicted"]) for r in rows) / n, 2),
            "true_per_task": round(sum(len(r["expected"]) for r in rows) / n, 2),
            "confident_findings": len(high),
            "confident_right": round(sum(high) / len(high), 4) if high else None,
            "tasks_truth_not_in_model": sum(1 for r in rows if r["not_in_model"]),
        }
    )
    return out


def group(rows: Sequence[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    keys = sorted({r[key] for r in rows})
    return {k: summary([r for r in rows if r[key] == k]) for k in keys}


def run(
    tasks: Sequence[dict[str, Any]],
    maps: dict[str, ServiceMap],
    clones: Path,
    embedder: str,
    cache: Path,
    reindex: bool = False,
    progress: Progress | None = None,
    stale_ok: bool = False,
) -> list[dict[str, Any]]:
    rows = []
    for t in tasks:
        clone = clones / t["repository"]
        app, info = indexed_app(clone, t, embedder, cache, reindex, stale_ok)
        row = run_task(app, info, clone, maps[t["repository"]], t)
        rows.append(row)
        if progress:
            progress(
                f"  {t['id']} P {row['precision']:.2f} R {row['recall']:.2f} "
                f"pred {row['predicted']} true {row['expected']}"
            )
    return rows
