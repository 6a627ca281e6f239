"""Fits the change surface's evidence mix (orbitkb/domain/change/ranking.json) on the TUNE tasks of
the real-history benchmark: an L2-regularised logistic model over the features of every directly
matched candidate (orbitkb.domain.change.ranking.features), then the two probability cuts (drop a
runner-up the rules chose / add one they left out) that maximise the classifier's macro F1 on the
same tune tasks while the fixture floors of the example system hold, then the answer's size
(change/sizing.py: a logistic model over every service of every answered task, what the rules said
of it and the cheap evidence it has; the answer grows while its expected F1 does). Held-out tasks
are scored with the fitted model and printed, never used to choose anything.

The refit, ONE command (rerun it whenever an analyzer's version moves: the facts it was fitted on
changed, and tests/unit/change/test_ranking_fitted_on.py fails until it is rerun):

    uv run python benchmarks/realhistory/fit.py --clones /work/clones --cache /tmp/me/rhcache --write

Each cached database whose marker does not record this tree's analysis version (the CodeAnalyzer
port's ``version``) is indexed again first (realhistory/run.py), so the fit always sees today's
facts; ``--write`` records in ranking.json what it was fitted on (``fitted_on``: that version, how
many tune tasks and repositories, the date, this command). To compare rankings on one fixed index
without indexing again, ``--stale-ok --model-file /tmp/me/model.json`` fits there and writes elsewhere.

A change is judged by leave-one-repository-out (each tune repository answered by the whole use case
with a mix fitted without it), task by task: ``--loo-out /tmp/me/before.json`` keeps each task's F1,
and a later run with ``--compare /tmp/me/before.json`` says how many tasks got better and worse
(sign test).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs
import numpy as np

BENCH = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BENCH))
sys.path.insert(0, str(BENCH.parent))  # tests.integration.change_quality: the fixture floors

from orbitkb.domain.architecture.graph import SystemGraph  # noqa: E402
from orbitkb.domain.catalog import ServiceCatalog  # noqa: E402
from orbitkb.domain.change import ranking, sizing  # noqa: E402
from orbitkb.domain.change.candidates import code_ranking, name_words, retrieve, task_terms  # noqa: E402
from orbitkb.domain.change.classify import classify  # noqa: E402
from orbitkb.domain.change.evidence import EvidenceIndex  # noqa: E402
from orbitkb.domain.retrieval import HybridRetriever  # noqa: E402
from orbitkb.domain.usecases.change_surface import FindChangeSurface, offline_findings  # noqa: E402
from realhistory import gitio  # noqa: E402
from realhistory.mine import TASKS_FILE  # noqa: E402
from realhistory.run import indexed_app  # noqa: E402
from realhistory.truthmap import load  # noqa: E402

MODEL_FILE = BENCH.parent / "packages/orbitkb-domain/src/orbitkb/domain/change/ranking.json"
REFIT = "uv run python benchmarks/realhistory/fit.py --clones /work/clones --cache DIR --write"
L2 = 1.0
DROPS = (0.0, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35)
ADDS = (0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 1.01)  # 1.01: add nothing; F1 is best cut near half the best F1

#: One task: its expected services and, per directly matched candidate, (truth name, features).
Sample = dict[str, Any]


def samples(tasks: Sequence[dict[str, Any]], clones: Path, cache: Path, embedder: str,
            stale_ok: bool = False) -> list[Sample]:
    maps = load()
    out = []
    for t in tasks:
        app, info = indexed_app(clones / t["repository"], t, embedder, cache, False, stale_ok)
        store = app.adapters.store()
        services = store.list_services()
        smap = maps[t["repository"]]
        present = smap.present(p for p, _, _ in gitio.tree(clones / t["repository"], t["parent"]))
        truth = {s.name: smap.map_root(s.root_dir, present) or f"?{s.name}" for s in services}
        retriever = HybridRetriever(store, app.adapters.embedder())
        cands, _ = retrieve(t["task"], retriever, ServiceCatalog(services), SystemGraph.load(store))
        terms = task_terms(t["task"], name_words(services))
        matched = [c for c in cands.values() if c.via == "match"]
        feats = ranking.features(matched, len(terms), len(services))
        out.append({"id": t["id"], "repository": t["repository"], "expected": set(t["expected"]),
                    "task": t["task"], "store": store,
                    "rows": [(truth[name], [f[k] for k in ranking.FEATURES]) for name, f in feats.items()],
                    "cands": cands, "terms": len(terms), "n": len(services), "truth": truth,
                    "lookup": EvidenceIndex(store), "analysis": info.get("analysis"),
                    "model": store.load_model(), "code": code_ranking(retriever, t["task"], services),
                    "names": list(dict.fromkeys(s.name for s in services))})
    return out


def fitted_on(data: list[Sample], tune_f1: float, loro: float, today: str, stale_ok: bool = False) -> dict[str, Any]:
    """What the model is fitted on (ranking.FITTED_ON): one analysis version for every database, or
    a clear error (a fit over facts of two analyzers says what neither is worth); with ``stale_ok``
    databases that never recorded theirs are said to be "unrecorded"."""
    versions = {s["analysis"] or ("unrecorded" if stale_ok else None) for s in data}
    if len(versions) != 1 or None in versions:
        raise SystemExit(f"the tune databases were indexed by {len(versions)} analysis versions "
                         f"({sorted(map(str, versions))}): not written")
    return {"analysis": versions.pop(), "tasks": len(data), "repositories": len({s["repository"] for s in data}),
            "date": today, "tune_f1": round(tune_f1, 4), "leave_one_repository_out": round(loro, 4),
            "command": REFIT}


def fit(data: list[Sample], l2: float = L2) -> tuple[np.ndarray, float]:
    """The evidence mix: a logistic model over every directly matched candidate's features."""
    x = np.array([f for s in data for _, f in s["rows"]], dtype=float)
    y = np.array([truth in s["expected"] for s in data for truth, _ in s["rows"]], dtype=float)
    return logistic(x, y, l2)


def logistic(x: np.ndarray, y: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """Newton steps on the penalised log-likelihood (the bias is not penalised)."""
    z = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = l2 * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        grad = z.T @ (p - y) + penalty @ w
        hess = (z * (p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def model(w: np.ndarray, b: float, drop: float, add: float) -> ranking.RankingModel:
    return ranking.RankingModel(dict(zip(ranking.FEATURES, w.tolist())), b, drop, add)


def sizing_rows(data: list[Sample], m: ranking.RankingModel) -> tuple[np.ndarray, np.ndarray]:
    """Every service of every task the rules answered (with this model, before the answer's size):
    its sizing features (change/sizing.py) and whether it changed."""
    x, y = [], []
    for s in data:
        found = offline_findings(s["task"], s["cands"], s["terms"], s["lookup"], s["model"], m, False,
                                 sized=False)
        if not any(f.tier in ("primary", "secondary") for f in found):
            continue  # an empty answer stays empty: the size is never asked
        for name, row in sizing.rows(found, s["cands"], s["names"], s["terms"], s["code"]).items():
            x.append([row[k] for k in ranking.SIZING_FEATURES])
            y.append(s["truth"].get(name, f"?{name}") in s["expected"])
    return np.array(x, dtype=float), np.array(y, dtype=float)


def with_sizing(data: list[Sample], m: ranking.RankingModel) -> ranking.RankingModel:
    """The model, with the answer's size fitted on the rules' answers it gives (without one when no
    answered task has both a service that changed and one that did not: nothing to fit on)."""
    x, y = sizing_rows(data, m)
    if not len(y) or y.min() == y.max():
        return m
    w, b = logistic(x, y)
    return attrs.evolve(m, sizing=ranking.SizingModel(dict(zip(ranking.SIZING_FEATURES, w.tolist())), b))


def answer(s: Sample, m: ranking.RankingModel) -> list[tuple[float, str]]:
    """What the classifier answers (confidence, truth service) with this model."""
    found = classify(s["cands"], s["terms"], s["lookup"], s["n"], m)
    return [(f.confidence, s["truth"].get(f.service, f"?{f.service}")) for f in found
            if f.tier in ("primary", "secondary")]


def surface(s: Sample, m: ranking.RankingModel) -> set[str]:
    """The truth services of the whole use case's answer (primary + secondary) with this model: the
    classifier and every step after it (contracts, the user-facing service, build work, history)."""
    return {t for t, _, _ in stated(s, m)}


def stated(s: Sample, m: ranking.RankingModel) -> list[tuple[str, float, bool]]:
    """(truth service, stated confidence, added by the answer's size) of each finding of the whole
    use case's answer."""
    got = FindChangeSurface(s["store"], ranking=m)(s["task"], record=False)
    return [(s["truth"].get(f.service, f"?{f.service}"), f.confidence, sizing.SAYS in f.reason)
            for f in (*got.primary, *got.secondary)]


def shape(data: list[Sample], answers: dict[str, list[tuple[str, float, bool]]]) -> str:
    """The answers' shape: size against truth, precision, empty answers, how often a >= 0.8 finding is
    right, and F1 by system size."""
    got = [(s, {t for t, _, _ in answers[s["id"]]}) for s in data]
    high = [t in s["expected"] for s in data for t, c, _ in answers[s["id"]] if c >= 0.8]
    added = [(c, t in s["expected"]) for s in data for t, c, a in answers[s["id"]] if a]
    by = {k: [f1(p, s["expected"]) for s, p in got if lo <= s["n"] <= hi]
          for k, lo, hi in (("1", 1, 1), ("2-4", 2, 4), ("5+", 5, 10 ** 6))}
    return (f"answer {np.mean([len(p) for _, p in got]):.2f} / true {np.mean([len(s['expected']) for s, _ in got]):.2f}; "
            f"precision {np.mean([len(p & s['expected']) / len(p) if p else 0.0 for s, p in got]):.3f}; "
            f"empty {sum(1 for _, p in got if not p)}; >= 0.8 right {sum(high)}/{len(high)}; added by the size "
            f"{len(added)}, stated {np.mean([c for c, _ in added] or [0]):.2f}, right {sum(r for _, r in added)}; "
            "F1 by system size: "
            + ", ".join(f"{k}: {np.mean(v):.3f} ({len(v)})" for k, v in by.items() if v))


def compare(now: dict[str, float], before: dict[str, float]) -> tuple[int, int, float]:
    """Per-task sign test of two leave-one-repository-out runs over the tasks both scored: how many
    tasks are better, how many worse, and the two-sided p of so many of one sign among the changed."""
    shared = now.keys() & before.keys()
    better = sum(1 for k in shared if now[k] > before[k] + 1e-9)
    worse = sum(1 for k in shared if now[k] < before[k] - 1e-9)
    n, k = better + worse, max(better, worse)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n if n else 1.0
    return better, worse, min(1.0, 2 * tail)


def f1(pred: set[str], expected: set[str]) -> float:
    tp = len(pred & expected)
    return 0.0 if not tp else 2 * tp / (len(pred) + len(expected))


def macro_f1(data: list[Sample], m: ranking.RankingModel) -> float:
    return float(np.mean([f1({t for _, t in answer(s, m)}, s["expected"]) for s in data])) if data else 0.0


def best_model(data: list[Sample], floors: Floors | None = None, sizing_on: bool = True) -> ranking.RankingModel:
    """The cuts with the best tune F1 — among those that keep the fixture floors, when given (none
    keeping them is a clear error: a model that drops what the example system needs is not written)."""
    w, b = fit(data)
    grid = sorted((model(w, b, d, a) for d in DROPS for a in ADDS),
                  key=lambda m: (-round(macro_f1(data, m), 4), m.drop, -m.add))
    kept = None
    for m in grid:  # the first cut keeping the floors, sized when the sized answer keeps them too
        sized = with_sizing(data, m) if sizing_on else m
        kept = next((c for c in (sized, m) if floors is None or floors.hold(c)), None)
        if kept is not None:
            break
    if kept is None:
        raise SystemExit("no cut of the fitted mix keeps the fixture floors (tests/integration/change_quality): "
                         "nothing written")
    return kept


class Floors:
    """The change-quality floors of the example system (tests/integration/change_quality): a cut
    that lifts real-history F1 by dropping what the fixtures need is not taken."""

    def __init__(self, workdir: Path) -> None:
        from changebench.corpus import load_tasks, system_paths
        from changebench.runner import index, make_app

        self.app = make_app(str(workdir / "shopfront.db"), "off")
        index(self.app, str(system_paths()["shopfront"]), "shopfront")
        self.tasks = load_tasks(system="shopfront")
        self.services = self.app.adapters.store().list_services()

    def hold(self, m: ranking.RankingModel) -> bool:
        from changebench.runner import evaluate, summarize

        from tests.integration.change_quality import test_recall_floor as floor

        find = FindChangeSurface(self.app.adapters.store(), ranking=m)
        rows = []
        for t in self.tasks:
            s = find(t.task, (), record=False)
            found = [{"service": f.service, "tier": tier, "confidence": f.confidence, "reason": f.reason}
                     for tier in ("primary", "secondary", "no_change_hint") for f in getattr(s, tier)]
            rows.append(evaluate(t, {"findings": found, "retrieval": s.retrieval}, self.services, None))
        got = summarize(rows)
        return (got["orbitkb"]["recall"] >= floor.RECALL_FLOOR and got["orbitkb"]["precision"] >= floor.PRECISION_FLOOR
                and got["orbitkb"]["f1"] >= floor.F1_FLOOR
                and got["orbitkb_primary_only"]["recall"] >= floor.PRIMARY_RECALL_FLOOR
                and pinned_hold(m))


def pinned_hold(m: ranking.RankingModel) -> bool:
    """The seeded system's pinned services (tests/unit/change/seed.py) are still in the surface."""
    from tests.unit.change.seed import PINNED_IN_SURFACE, seeded_store

    for task, service in PINNED_IN_SURFACE:
        s = FindChangeSurface(seeded_store(), ranking=m)(task, record=False)
        if service not in {f.service for f in (*s.primary, *s.secondary)}:
            return False
    return True


def reliability(data: list[Sample], m: ranking.RankingModel) -> str:
    bins: dict[str, list[bool]] = {}
    for s in data:
        for p, t in answer(s, m):
            bins.setdefault(f"{min(int(p * 5), 4) * 0.2:.1f}", []).append(t in s["expected"])
    return ", ".join(f"{k}: {sum(v)}/{len(v)}" for k, v in sorted(bins.items()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, default=Path("/work/clones"))
    ap.add_argument("--cache", type=Path, default=BENCH / "out" / "realhistory")
    ap.add_argument("--embedder", choices=("auto", "off"), default="off")
    ap.add_argument("--write", action="store_true", help=f"write the model to {MODEL_FILE.name}")
    ap.add_argument("--no-holdout", action="store_true",
                    help="neither index nor score the held-out tasks (while iterating on the tune half)")
    ap.add_argument("--tasks", type=Path, default=TASKS_FILE, help="the mined tasks (default: %(default)s)")
    ap.add_argument("--model-file", type=Path, default=MODEL_FILE, help="where --write writes (default: %(default)s)")
    ap.add_argument("--loo-out", type=Path, help="write each tune task's leave-one-repository-out F1 here (JSON)")
    ap.add_argument("--compare", type=Path,
                    help="a --loo-out file of an earlier run: per-task sign test of this run against it")
    ap.add_argument("--no-sizing", action="store_true",
                    help="the rules' answer alone: fit no answer size (change/sizing.py), to compare")
    ap.add_argument("--stale-ok", action="store_true",
                    help="fit on cached databases whatever analysis version indexed them (not for the packaged model)")
    args = ap.parse_args(argv)
    tasks = [t for t in json.loads(args.tasks.read_text(encoding="utf-8"))["tasks"]
             if (args.clones / t["repository"]).exists()]
    tune = samples([t for t in tasks if t["split"] == "tune"], args.clones, args.cache / "db", args.embedder,
                   args.stale_ok)
    held = [] if args.no_holdout else samples([t for t in tasks if t["split"] == "holdout"], args.clones,
                                              args.cache / "db", args.embedder, args.stale_ok)
    with tempfile.TemporaryDirectory() as d:
        m = best_model(tune, Floors(Path(d)), not args.no_sizing)
    # leave one tune repository out: what the fitted mix is worth on a repository it never saw, each
    # task answered by the whole use case (cuts by tune F1 alone here: the floors are checked once,
    # on the model written)
    per_task: dict[str, float] = {}
    loo_answers: dict[str, list[tuple[str, float, bool]]] = {}
    for repo in sorted({s["repository"] for s in tune}):
        mr = best_model([s for s in tune if s["repository"] != repo], None, not args.no_sizing)
        loo_answers.update({s["id"]: stated(s, mr) for s in tune if s["repository"] == repo})
    per_task.update({s["id"]: f1({t for t, _, _ in loo_answers[s["id"]]}, s["expected"]) for s in tune})
    loro = list(per_task.values())
    print(f"leave-one-repository-out answers: {shape(tune, loo_answers)}")
    if args.loo_out:
        args.loo_out.write_text(json.dumps(per_task, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    if args.compare:
        better, worse, p = compare(per_task, json.loads(args.compare.read_text(encoding="utf-8")))
        print(f"against {args.compare}: {better} tasks better, {worse} worse (sign test p {p:.3f})")
    print(f"weights: {dict((k, round(v, 3)) for k, v in m.weights.items())} bias {m.bias:.3f} "
          f"drop {m.drop} add {m.add}")
    if m.sizing is not None:
        print(f"sizing: {dict((k, round(v, 3)) for k, v in m.sizing.weights.items())} bias {m.sizing.bias:.3f}")
    tune_f1 = float(np.mean([f1(surface(s, m), s["expected"]) for s in tune]))  # the whole use case, like the LOO
    print(f"tune F1 {tune_f1:.3f} (leave-one-repository-out {np.mean(loro):.3f}); "
          f"holdout F1 {macro_f1(held, m):.3f}")
    print(f"tune reliability (bucket: right/findings): {reliability(tune, m)}")
    print(f"holdout reliability: {reliability(held, m)}")
    if args.write:
        model = {"about": "fitted by benchmarks/realhistory/fit.py on the tune tasks; do not edit by hand",
                 "fitted_on": fitted_on(tune, tune_f1, float(np.mean(loro)), datetime.date.today().isoformat(),
                                       args.stale_ok),
                 "weights": {k: round(v, 4) for k, v in m.weights.items()},
                 "bias": round(m.bias, 4), "drop": m.drop, "add": m.add}
        if m.sizing is not None:
            model["sizing"] = {"weights": {k: round(v, 4) for k, v in m.sizing.weights.items()},
                               "bias": round(m.sizing.bias, 4)}
        ranking.fitted_on(model)  # the domain reads back what is written
        args.model_file.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.model_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
