"""What orbitkb extracted from one clone, in the corpus's vocabulary (facts keyed by truth names)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from attrs import frozen

from . import normalize as norm


@frozen
class Item:
    key: tuple[str, ...]
    where: str  # file:line of the evidence


def index(clone: Path, name: str, commit: str, db: Path) -> Any:
    from orbitkb.bootstrap import Settings, build_application
    from orbitkb.domain.usecases.indexing import IndexRequest

    if db.exists():
        db.unlink()
    app = build_application(Settings(db_path=str(db), backend="offline", embedder="off", jobs=2))
    app.use_cases.index_repository()(IndexRequest(str(clone), repository_name=name, commit=commit))
    return app


def map_services(services: list[Any], truth: list[Mapping[str, Any]]) -> dict[str, str]:
    """orbitkb service id -> truth service name (by name, alias or root folder), else '?name'."""
    out: dict[str, str] = {}
    for s in services:
        mine = {norm.name(s.name), *(norm.name(a) for a in s.aliases)}
        hit = None
        for t in truth:
            theirs = {norm.name(t["name"]), *(norm.name(a) for a in t.get("aliases", ()))}
            if mine & theirs:
                hit = t["name"]
                break
        if hit is None:
            for t in truth:
                if t.get("root") and t["root"].strip("/") == s.root_dir.strip("/"):
                    hit = t["name"]
                    break
        out[s.id] = hit or f"?{s.name}"
    return out


def _where(evidence: Any) -> str:
    return f"{evidence[0].file}:{evidence[0].start_line}" if evidence else "?"


def extracted(app: Any, repo: str, truth: Mapping[str, Any]) -> dict[str, list[Item]]:
    from orbitkb.domain.integrations import find_vendor

    store = app.adapters.store()
    services = store.list_services(repo)
    by_id = map_services(services, truth.get("services", []))
    ids = set(by_id)
    out: dict[str, list[Item]] = {k: [] for k in ("services", "endpoints", "calls", "messaging",
                                                  "persistence", "entities", "external")}
    for s in services:
        out["services"].append(Item((by_id[s.id],), f"{s.root_dir} ({s.name})"))
    for a in store.list_apis():
        if a.service_id not in ids or a.kind.value == "message":
            continue
        out["endpoints"].append(Item((by_id[a.service_id], a.method.upper(), norm.path(a.method, a.path)),
                                     f"{a.file}:{a.start_line} {a.method} {a.path}"))
    for c in store.list_calls():
        if c.from_service_id not in ids:
            continue
        src = by_id[c.from_service_id]
        if c.to_service_id and c.to_service_id in by_id:
            dst = by_id[c.to_service_id]
            if dst != src:
                out["calls"].append(Item((src, dst, c.call_kind.value), _where(c.evidence)))
        elif c.target_kind.value == "external":
            v = find_vendor(c.target)
            out["external"].append(Item((src, norm.vendor(v.name if v else c.target)),
                                        f"{_where(c.evidence)} {c.target}"))
    for m in store.list_messages():
        if m.service_id in ids:
            out["messaging"].append(Item((by_id[m.service_id], m.direction.value, norm.channel(m.channel)),
                                         f"{_where(m.evidence)} [{m.provider}]"))
    for e in store.list_entities():
        if e.service_id not in ids:
            continue
        svc = by_id[e.service_id]
        if e.engine and e.engine != "unknown":
            out["persistence"].append(Item((svc, norm.engine(e.engine)), _where(e.evidence)))
        names = tuple(sorted({norm.name(x) for x in (e.name, e.class_name) if x}))
        out["entities"].append(Item((svc, *names), f"{_where(e.evidence)} {e.class_name or ''}/{e.name}"))
    return out
