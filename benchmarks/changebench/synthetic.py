"""Tasks on the synthetic system of benchmarks/synth.py, derived from what the generator planted
(expected.json), so the truth holds by construction: a resource served by exactly one service
changes only there; a changed request contract changes its owner and every caller; a changed event
changes its publisher and every consumer. Phrasing avoids service names (it names resources and
events, the way tickets do)."""

from __future__ import annotations

import importlib.util
import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from .corpus import BENCH, Task

SIZE = {"services": 20, "files": 600, "seed": 11}
PREFIX_WORDS = {"api", "v1", "v2"}
CRUD = {"list", "get", "create", "update", "delete"}
PER_KIND = 6


def generate(dest: Path) -> dict[str, Any]:
    spec = importlib.util.spec_from_file_location("orbitkb_bench_synth", BENCH / "synth.py")
    if spec is None or spec.loader is None:
        raise ImportError("benchmarks/synth.py is missing")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.generate(dest, SIZE["services"], SIZE["files"], SIZE["seed"])


def _resource(path: str) -> tuple[str | None, str | None]:
    """'/api/v1/rates/<int:rate_id>/approve' -> ('rates', 'approve')."""
    segs = [s for s in path.strip("/").split("/") if s and s not in PREFIX_WORDS]
    plain = [s for s in segs if re.fullmatch(r"[a-z]+", s)]
    if not plain:
        return None, None
    action = (
        plain[-1]
        if len(plain) > 1 and not re.fullmatch(r"[a-z]+", segs[-2] if len(segs) > 1 else "")
        else None
    )
    return plain[0], action


def _singular(plural: str) -> str:
    if plural.endswith("ies"):
        return plural[:-3] + "y"
    if plural.endswith(("sses", "xes")):
        return plural[:-2]
    return plural[:-1] if plural.endswith("s") else plural


def _past(verb: str) -> str:
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def tasks_from_expected(doc: dict[str, Any], system: str = "synthetic") -> list[Task]:
    rng = random.Random(SIZE["seed"])
    owners: dict[str, set[str]] = defaultdict(set)
    actions: dict[tuple[str, str], set[str]] = defaultdict(set)
    for a in doc["apis"]:
        if a["kind"] != "http":
            continue
        res, action = _resource(a["path"])
        if res:
            owners[res].add(a["service"])
            if action and action != res:
                actions[(res, action)].add(a["service"])
    for e in doc["entities"]:
        owners[e["name"]].add(e["service"])
    unique = {res: next(iter(s)) for res, s in owners.items() if len(s) == 1}
    out: list[Task] = []

    # 1. one resource, one owner: a behaviour change inside it
    singles = sorted(
        (res, action) for (res, action), svcs in actions.items() if res in unique and len(svcs) == 1
    )
    for res, action in rng.sample(singles, min(PER_KIND, len(singles))):
        out.append(
            Task(
                f"syn-act-{res}-{action}",
                system,
                f"Record who {_past(action)} each {_singular(res)} and when",
                (unique[res],),
            )
        )
    lists = sorted(res for res in unique if any(_resource(a["path"]) == (res, None) for a in doc["apis"]))
    for res in rng.sample(lists, min(PER_KIND, len(lists))):
        out.append(
            Task(
                f"syn-list-{res}",
                system,
                f"Let people filter the list of {res} by creation date",
                (unique[res],),
            )
        )

    # 2. a request contract change: the owner and everyone who calls that endpoint
    callers: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for c in doc["calls"]:
        if c.get("to") and c.get("method") == "POST" and c.get("path"):
            callers[(c["to"], c["method"], c["path"])].add(c["from"])
    # only endpoints whose resource and action exist in one service: the task then has one reading
    contracts = sorted(k for k in callers if actions.get(_resource(k[2])) == {k[0]})
    for to, _method, path in rng.sample(contracts, min(PER_KIND, len(contracts))):
        res, action = _resource(path)
        assert res is not None and action is not None
        expected = tuple(sorted({to, *callers[(to, "POST", path)]} - {None}))
        out.append(
            Task(
                f"syn-contract-{to}-{res}-{action}",
                system,
                f"To {action} {_a(_singular(res))} a reason code is now mandatory; every caller must send one",
                expected,
            )
        )

    # 3. an event payload change: the publisher and every consumer
    by_channel: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for ch in doc["channels"]:
        by_channel[ch["channel"]][ch["direction"]].add(ch["service"])
    events = sorted(c for c, d in by_channel.items() if d["publishes"] and d["consumes"])
    for ch in rng.sample(events, min(PER_KIND, len(events))):
        words = " ".join(w for w in re.split(r"[^a-z]+", ch) if w)
        expected = tuple(sorted(by_channel[ch]["publishes"] | by_channel[ch]["consumes"]))
        out.append(
            Task(
                f"syn-event-{ch}",
                system,
                f"Add the time it happened to the '{words}' event and use it wherever that event is handled",
                expected,
            )
        )
    return sorted(out, key=lambda t: t.id)
