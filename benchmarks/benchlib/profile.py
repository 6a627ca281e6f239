"""A cProfile of one cold index with parsing in this process (workers=1), so every parse is
visible: hot spots by function, self time by module, and the share of time spent in modules
that exist only for dependency extraction (calls, messaging, persistence, configuration)."""

from __future__ import annotations

import cProfile
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib.measure import REPO, build

#: path fragments of modules whose work is dependency extraction, not discovery
EXTRACTION_MODULES = (
    "analysis/resolution/calls.py",
    "analysis/resolution/channels.py",
    "analysis/resolution/values.py",
    "analysis/resolution/urls.py",
    "analysis/resolution/engines.py",
    "analysis/config/",
    "analysis/resolution/matcher.py",
    "analysis/resolution/apimatch.py",
    "python/calls.py",
    "python/messaging.py",
    "python/persistence.py",
    "node/calls.py",
    "node/messaging.py",
    "node/persistence.py",
    "node/prisma.py",
    "jvm/calls.py",
    "jvm/http_sites.py",
    "jvm/messages.py",
    "jvm/msg_sites.py",
    "jvm/entities.py",
    "jvm/wrappers.py",
    "golang/clients.py",
    "golang/messaging.py",
    "golang/gorm.py",
)


def _area(filename: str) -> str:
    f = filename.replace("\\", "/")
    if "/orbitkb/" in f:
        tail = f.split("/orbitkb/", 1)[1]
        parts = tail.split("/")
        return "/".join(parts[:2]) if len(parts) > 2 else tail
    if "tree_sitter" in f:
        return "tree_sitter"
    if "sqlalchemy" in f:
        return "sqlalchemy"
    if f.startswith("~") or f.startswith("<"):
        return "builtins"
    return "other:" + Path(f).parent.name


def profile(folder: Path, top: int = 40) -> dict[str, Any]:
    """Profiles a cold index, then a no-change re-index of the same tree into the same database."""
    from orbitkb.domain.usecases.indexing import IndexRequest

    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="orbitkb-prof-") as tmp:
        app, _, _ = build(str(Path(tmp) / "prof.db"), workers=1)
        for label in ("cold", "nochange"):
            index = app.use_cases.index_repository()
            prof = cProfile.Profile()
            t0 = time.perf_counter()
            prof.enable()
            index(IndexRequest(path=str(folder), repository_name=REPO))
            prof.disable()
            out[label] = _summarize(prof, time.perf_counter() - t0, top)
    return out


def _summarize(prof: cProfile.Profile, wall: float, top: int) -> dict[str, Any]:
    rows = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in rows.values())
    by_area: dict[str, float] = {}
    extraction = 0.0
    funcs = []
    for (filename, line, name), (_cc, ncalls, tottime, cumtime, _callers) in rows.items():
        by_area[_area(filename)] = by_area.get(_area(filename), 0.0) + tottime
        if any(m in filename.replace("\\", "/") for m in EXTRACTION_MODULES):
            extraction += tottime
        funcs.append(
            (tottime, cumtime, ncalls, f"{_short(filename)}:{line}({name})", "/orbitkb/" in filename)
        )
    funcs.sort(reverse=True)
    cum = sorted(((c, t, n, f) for t, c, n, f, ours in funcs if ours), reverse=True)
    return {
        "wall_seconds_profiled": round(wall, 2),
        "profiled_seconds": round(total, 2),
        "extraction_self_seconds": round(extraction, 2),
        "extraction_self_share": round(extraction / total, 3) if total else None,
        "self_time_by_area": {k: round(v, 2) for k, v in sorted(by_area.items(), key=lambda kv: -kv[1])[:20]},
        "top_self": [
            {"func": f, "self_s": round(t, 2), "cum_s": round(c, 2), "calls": n}
            for t, c, n, f, _ in funcs[:top]
        ],
        "top_cumulative_orbitkb": [
            {"func": f, "cum_s": round(c, 2), "self_s": round(t, 2), "calls": n} for c, t, n, f in cum[:top]
        ],
    }


def _short(filename: str) -> str:
    f = filename.replace("\\", "/")
    return f.split("/orbitkb/", 1)[1] if "/orbitkb/" in f else f.rsplit("/site-packages/", 1)[-1]
