"""Does bm25 over each service's raw source fuse with the change surface's ranking? Per task of the
real-history benchmark: where each truly changed service ranks under our ranking (direct matches by
combined score) and under the baseline's bm25 over raw source, how often one's top-1 is right and
the other's wrong, and what simple fusions would give — reciprocal-rank fusion of the two orders,
the classifier with the baseline's bm25 in place of the index's source evidence, and bm25 over the
bounded source bag the index stores (is the bag enough, scored the baseline's way?).

    uv run python benchmarks/realhistory/fusion.py --clones /work/clones --cache /tmp/me/rh --split tune --out DIR

An analysis, never a fit: nothing here is written to the product. The baseline's bm25 ranks only
the services of the truth map, so it never scores a folder the map does not call a service; the
classifier row "bm25 as source" is therefore given twice, with such candidates at zero (what the
baseline sees, unfair to us) and keeping their own source evidence (the fair comparison).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

BENCH = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BENCH))

from changebench.baseline import MAX_FILE, Bm25, service_texts  # noqa: E402
from changebench.metrics import macro, score  # noqa: E402

from orbitkb.domain.change.candidates import SOURCE_WEIGHT  # noqa: E402
from realhistory import gitio  # noqa: E402
from realhistory.fit import answer, samples  # noqa: E402
from realhistory.mine import TASKS_FILE  # noqa: E402
from realhistory.run import _db  # noqa: E402
from realhistory.truthmap import load  # noqa: E402

RRF_K = 5  # reciprocal-rank fusion's damping: 1 / (K + rank)
BAG_SHARE = 0.5  # how much of the stored bag's bm25 is added to a candidate's combined score
LAST_RANK = 6  # ranks from here on (or absent) are counted together


def rrf(orders: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal-rank fusion: each name scores the sum of 1 / (k + rank) over the orders it is in;
    best first, ties by name."""
    fused: Counter[str] = Counter()
    for order in orders:
        for i, name in enumerate(order, 1):
            fused[name] += 1.0 / (k + i)
    return [name for name, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))]


def truth_ranks(order: Sequence[str], expected: Iterable[str], last: int = LAST_RANK) -> list[int]:
    """The rank of each truly changed service in an order (1 is best), ``last`` when it is absent
    or ranks there or below."""
    return [min(order.index(t) + 1, last) if t in order else last for t in sorted(expected)]


def agreement(rows: Iterable[tuple[Sequence[str], Sequence[str], Iterable[str]]]) -> dict[str, int]:
    """Over (ours, theirs, expected) orders: tasks whose top-1 both / only ours / only theirs / neither got right."""
    out = dict.fromkeys(("both", "ours only", "bm25 only", "neither"), 0)
    for ours, theirs, expected in rows:
        truth = set(expected)
        a, b = bool(ours) and ours[0] in truth, bool(theirs) and theirs[0] in truth
        out["both" if a and b else "ours only" if a else "bm25 only" if b else "neither"] += 1
    return out


def _distinct(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def _ours(s: dict[str, Any]) -> list[str]:
    direct = sorted((c for c in s["cands"].values() if c.via == "match"), key=lambda c: (-c.score, c.service.name))
    return _distinct(s["truth"].get(c.service.name, f"?{c.service.name}") for c in direct)


def _index_rrf(s: dict[str, Any]) -> list[str]:
    """What the product could fuse without the baseline: per candidate, reciprocal-rank fusion of its
    rank by fact-word evidence and its rank by the index's own source evidence (ties share a rank)."""
    direct = [c for c in s["cands"].values() if c.via == "match"]

    def ranks(value: Callable[[Any], float]) -> dict[str, int]:
        levels = sorted({value(c) for c in direct if value(c) > 0}, reverse=True)
        return {c.service.name: levels.index(value(c)) + 1 for c in direct if value(c) > 0}

    by_words, by_source = ranks(lambda c: c.keyword), ranks(lambda c: c.source)
    fused = {n: sum(1.0 / (RRF_K + r[n]) for r in (by_words, by_source) if n in r) for n in s["cands"]
             if n in by_words or n in by_source}
    return _distinct(s["truth"].get(n, f"?{n}") for n, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0])))


def _with_source(s: dict[str, Any], source: Mapping[str, float], keep_unmapped: bool) -> dict[str, Any]:
    """The task's candidates with ``source`` (truth name -> 0..1) as their source evidence, the
    combined score made again the way candidates._combine makes it (offline: no semantic part)."""
    cands = {}
    for name, c in s["cands"].items():
        truth = s["truth"].get(name, "?")
        if not truth.startswith("?"):
            cands[name] = attrs.evolve(c, source=source.get(truth, 0.0))
        else:
            cands[name] = attrs.evolve(c, source=c.source if keep_unmapped else 0.0)
    direct = [c for c in cands.values() if c.via == "match"]
    top = max((c.keyword + SOURCE_WEIGHT * c.source for c in direct), default=0.0) or 1.0
    for c in direct:
        c.score = (c.keyword + SOURCE_WEIGHT * c.source) / top
    return {**s, "cands": cands}


def _plus_bag(s: dict[str, Any]) -> dict[str, Any]:
    """The task's candidates with BAG_SHARE x the stored bag's bm25 (relative to the best service)
    added to their share of the best combined score."""
    bag = {n: v for n, v in s["bag_scores"]}
    top_bag = max(bag.values(), default=0.0) or 1.0
    cands = {name: attrs.evolve(c) for name, c in s["cands"].items()}
    direct = [c for c in cands.values() if c.via == "match"]
    top = max((c.score for c in direct), default=0.0) or 1.0
    for c in direct:
        c.score = c.score / top + BAG_SHARE * bag.get(c.service.name, 0.0) / top_bag
    return {**s, "cands": cands}


def _bag_bm25(db: Path, text: str) -> list[tuple[str, float]]:
    """bm25 (the baseline's) over the source bag of each service as the index stored it (SQLite)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        docs = dict(conn.execute("SELECT service, text FROM search_docs WHERE kind = 'source'").fetchall())
    finally:
        conn.close()
    return Bm25(docs).rank(text) if docs else []


def collect(tasks: Sequence[dict[str, Any]], clones: Path, cache: Path) -> list[dict[str, Any]]:
    """Per task: our candidates (fit.samples), the baseline's bm25 order over raw source, bm25 over the stored bag."""
    maps = load()
    data = samples(tasks, clones, cache, "off")
    built: dict[tuple[str, str], Bm25] = {}
    for s, t in zip(data, tasks):
        clone, smap = clones / t["repository"], maps[t["repository"]]
        key = (t["repository"], t["parent"])
        if key not in built:
            present = smap.present(p for p, _, _ in gitio.tree(clone, t["parent"]))
            files = gitio.files_at(clone, t["parent"], lambda p, m=smap: m.owner(p) is not None, MAX_FILE)
            texts: dict[str, str] = {}
            for name in sorted(present):
                texts.update(service_texts([(p, d) for p, d in files if smap.owner(p) == name], {name: "."}))
            built.clear()
            built[key] = Bm25(texts)
        s["bm25"] = [(n, v) for n, v in built[key].rank(t["task"]) if v > 0]
        s["bag_scores"] = [(n, v) for n, v in _bag_bm25(_db(cache, t, "off"), t["task"]) if v > 0]
        s["bag"] = _distinct(s["truth"].get(n, f"?{n}") for n, _ in s["bag_scores"])
    return data


def _f1(data: Sequence[dict[str, Any]], predict: Callable[[dict[str, Any]], Iterable[str]]) -> dict[str, float]:
    return macro([score(sorted(set(predict(s))), sorted(s["expected"])) for s in data])


def report(data: Sequence[dict[str, Any]]) -> dict[str, Any]:
    def bm(s: dict[str, Any]) -> list[str]:
        return [n for n, _ in s["bm25"]]

    def normalised(s: dict[str, Any]) -> dict[str, float]:
        top = max((v for _, v in s["bm25"]), default=0.0) or 1.0
        return {n: v / top for n, v in s["bm25"]}

    methods: dict[str, Callable[[dict[str, Any]], Iterable[str]]] = {
        "ours (classifier)": lambda s: (t for _, t in answer(s, None)),
        "ours top-1": lambda s: _ours(s)[:1],
        "ours top-2": lambda s: _ours(s)[:2],
        "ours top-k, k told by the truth (a perfect answer size)": lambda s: _ours(s)[:len(s["expected"])],
        "bm25 top-1": lambda s: bm(s)[:1],
        "bm25 top-2": lambda s: bm(s)[:2],
        "bm25 over the stored source bag, top-1": lambda s: s["bag"][:1],
        f"rrf(ours, bm25) top-1 (k {RRF_K})": lambda s: rrf([_ours(s), bm(s)])[:1],
        f"rrf(ours, bm25) top-2 (k {RRF_K})": lambda s: rrf([_ours(s), bm(s)])[:2],
        f"rrf(fact words, index source) per candidate, top-1 (k {RRF_K})": lambda s: _index_rrf(s)[:1],
        f"rrf(ours, bm25 over the stored bag) top-1 (k {RRF_K})": lambda s: rrf([_ours(s), s["bag"]])[:1],
        f"classifier, score + {BAG_SHARE} x bm25 over the stored bag":
            lambda s: (t for _, t in answer(_plus_bag(s), None)),
        "classifier, bm25 as source (unmapped candidates 0)":
            lambda s: (t for _, t in answer(_with_source(s, normalised(s), False), None)),
        "classifier, bm25 as source (unmapped keep their own)":
            lambda s: (t for _, t in answer(_with_source(s, normalised(s), True), None)),
    }
    ranks: dict[str, Counter[int]] = {"ours": Counter(), "bm25": Counter()}
    for s in data:
        ranks["ours"].update(truth_ranks(_ours(s), s["expected"]))
        ranks["bm25"].update(truth_ranks(bm(s), s["expected"]))
    return {
        "tasks": len(data),
        "empty answers (ours)": sum(1 for s in data if not answer(s, None)),
        "top-1 agreement": agreement((_ours(s), bm(s), s["expected"]) for s in data),
        "rank of each true service (6: 6th or absent)": {k: dict(sorted(v.items())) for k, v in ranks.items()},
        "F1": {name: _f1(data, fn) for name, fn in methods.items()},
    }


def render(result: dict[str, Any]) -> str:
    lines = [f"tasks {result['tasks']}, empty answers (ours) {result['empty answers (ours)']}",
             f"top-1 right: {result['top-1 agreement']}",
             f"rank of each true service (1..5, 6 = lower or absent): {result['rank of each true service (6: 6th or absent)']}",
             "", "| method | precision | recall | F1 |", "|---|---|---|---|"]
    lines += [f"| {name} | {m['precision']:.3f} | {m['recall']:.3f} | {m['f1']:.3f} |" for name, m in result["F1"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clones", type=Path, default=Path("/work/clones"))
    ap.add_argument("--cache", type=Path, default=BENCH / "out" / "realhistory")
    ap.add_argument("--split", choices=("tune", "holdout"), default="tune")
    ap.add_argument("--out", type=Path, default=BENCH / "out" / "fusion")
    args = ap.parse_args(argv)
    tasks = [t for t in json.loads(TASKS_FILE.read_text(encoding="utf-8"))["tasks"]
             if t["split"] == args.split and (args.clones / t["repository"]).exists()]
    if not tasks:
        print(f"no {args.split} task to run (clones in {args.clones}?)", file=sys.stderr)
        return 2
    result = {"split": args.split, **report(collect(tasks, args.clones, args.cache / "db"))}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"fusion-{args.split}.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    text = render(result)
    (args.out / f"fusion-{args.split}.md").write_text(f"## bm25 fusion, {args.split}\n\n{text}\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
