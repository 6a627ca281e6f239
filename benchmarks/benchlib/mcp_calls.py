"""Realistic arguments for every orbitkb MCP tool on the synthetic system, rotated per call so
no single answer is measured from a warm cache only."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = "synthetic"
NOISE = {"node_modules", "target", "vendor", "dist", ".venv", "__pycache__", ".git"}
TASKS = (
    "add a discount code field to {plural} and expose it in the API",
    "rename the status of {plural} from cancelled to voided",
    "stop publishing events when {plural} are deleted",
    "add pagination to the list endpoint of {plural}",
)


def source_files(folder: Path, roots: list[str], per_root: int = 3) -> list[str]:
    out: list[str] = []
    for root in roots:
        picked = 0
        for dirpath, dirs, files in os.walk(folder / root):
            dirs[:] = sorted(d for d in dirs if d not in NOISE)
            for name in sorted(files):
                if name.endswith((".py", ".ts", ".js", ".java", ".go")) and picked < per_root:
                    out.append(str((Path(dirpath) / name).relative_to(folder)))
                    picked += 1
    return out


def plans(expected: dict, folder: Path, since_commit: str | None) -> dict[str, Iterator[dict[str, Any]]]:
    """tool -> an endless iterator of argument dicts (run_id is filled in later)."""
    services = sorted(s["name"] for s in expected["services"])
    apis = sorted((a["service"], a["method"], a["path"]) for a in expected["apis"] if a["kind"] == "http")
    edges = sorted({(c["from"], c["to"]) for c in expected["calls"]})
    step = max(1, len(apis) // 200)
    files = source_files(
        folder, [s["root_dir"] for s in sorted(expected["services"], key=lambda s: s["name"])[:20]]
    )
    nouns = sorted({a[2].strip("/").split("/")[-1] for a in apis if "{" not in a[2] and ":" not in a[2]})
    words = (
        "invoice approve",
        "refund",
        "orders created",
        "customer address",
        "kafka",
        "payments",
        "delete shipment",
        "ledger entries",
    )

    def cyc(items: list[Any]) -> Iterator[Any]:
        return itertools.cycle(items)

    s = cyc(services)
    return {
        "list_repositories": cyc([{}]),
        "list_services": cyc([{}, {"repository": REPO}]),
        "describe_service": ({"service": n} for n in cyc(services)),
        "list_apis": ({"service": n, "limit": 50} for n in cyc(services)),
        "describe_api": ({"service": a, "method": m, "path": p} for a, m, p in cyc(apis[::step])),
        "describe_persistence": ({"service": n} for n in cyc(services)),
        "describe_messages": ({"service": n} for n in cyc(services)),
        "search": ({"query": q, "limit": 20} for q in cyc(list(words))),
        "get_relationships": ({"service": n, "direction": "both"} for n in s),
        "trace_flow": ({"source": a, "target": b} for a, b in cyc(edges)),
        "find_architecture_smells": cyc([{}, {"limit": 20}]),
        "find_change_surface": ({"task": t.format(plural=p)} for t, p in zip(cyc(list(TASKS)), cyc(nouns))),
        "record_change_surface_feedback": (
            {"service": n, "outcome": o} for n, o in zip(cyc(services), cyc(["confirmed", "rejected"]))
        ),
        "verify_change_surface": cyc([{"repository": REPO, "since_commit": since_commit or "HEAD~1"}]),
        "find_provenance": (
            {"file": f, "line": ln, "repository": REPO} for f, ln in zip(cyc(files), cyc([5, 12, 20]))
        ),
        "refresh": cyc([{"repository": REPO}]),
    }
