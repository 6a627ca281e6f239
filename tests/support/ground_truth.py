"""Compare what orbitkb extracted from examples/shopfront with its hand-written ground truth.
``python -m tests.support.ground_truth`` prints the differences (missing / unexpected) per kind."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "shopfront"


def index_example(db: str) -> Any:
    from orbitkb.bootstrap import Settings, build_application
    from orbitkb.domain.usecases.indexing import IndexRequest

    app = build_application(Settings(db_path=db, backend="offline", embedder="off"))
    app.use_cases.index_repository()(IndexRequest(str(EXAMPLE), repository_name="shopfront"))
    return app


Record = tuple[tuple[Any, ...], frozenset[tuple[str, int]]]  # (key, locations)


def _locs(*evidence: Any) -> frozenset[tuple[str, int]]:
    return frozenset((e.file, e.start_line) for e in evidence if e is not None)


def extracted(app: Any) -> dict[str, list[Record]]:
    store = app.adapters.store()
    services = store.list_services("shopfront")
    name = {s.id: s.name for s in services}
    out: dict[str, list[Record]] = {
        "services": [((s.name, s.root_dir, s.stack), frozenset()) for s in services],
        "apis": [], "calls": [], "channels": [], "entities": [],
    }
    from orbitkb.domain.model import Evidence

    for a in store.list_apis():
        out["apis"].append(((name[a.service_id], a.method, a.path, a.handler, a.kind.value),
                            _locs(Evidence(a.file, a.start_line, a.end_line), *a.evidence)))
    for c in store.list_calls():
        out["calls"].append(((name[c.from_service_id], c.target, c.call_kind.value), _locs(*c.evidence)))
    for m in store.list_messages():
        out["channels"].append(((name[m.service_id], m.direction.value, m.channel, m.provider), _locs(*m.evidence)))
    for e in store.list_entities():
        out["entities"].append(((name[e.service_id], e.name, e.kind, e.engine), _locs(*e.evidence)))
    return out


def _vendor(target: str) -> str:
    from orbitkb.domain.integrations import find_vendor

    v = find_vendor(target) if "." in target else None
    return v.name if v else target


def expected() -> dict[str, list[Record]]:
    g = json.loads((EXAMPLE / "ground_truth.json").read_text())

    def loc(rec: dict[str, Any], *extra: tuple[str, int]) -> frozenset[tuple[str, int]]:
        sites = {(rec["file"], rec["line"]), *extra}
        sites.update((a["file"], a["line"]) for a in rec.get("alt_sites", ()))
        return frozenset(sites)

    return {
        "services": [((s["name"], s["root_dir"], s["stack"]), frozenset()) for s in g["services"]],
        "apis": [((a["service"], a["method"], a["path"], a["handler"], a["kind"]),
                  loc(a, (a.get("handler_file", a["file"]), a.get("handler_line", a["line"])))) for a in g["apis"]],
        "calls": [((c["from"], _vendor(c["to"]), c["kind"]), loc(c)) for c in g["calls"]],
        "channels": [((c["service"], c["direction"], c["channel"], c["provider"]), loc(c)) for c in g["channels"]],
        "entities": [((e["service"], e["name"], e["kind"], e["engine"]), loc(e)) for e in g["entities"]],
    }


def diff(got: dict[str, list[Record]], want: dict[str, list[Record]]) -> dict[str, dict[str, list[Any]]]:
    """Each expected record must match one extracted record with the same key and at least one
    common location (or both without locations); everything left over is reported."""
    out = {}
    for kind in want:
        remaining = list(got.get(kind, []))
        missing = []
        for key, locs in want[kind]:
            match = next((r for r in remaining if r[0] == key and (not locs and not r[1] or locs & r[1])), None)
            if match is None:
                missing.append((key, sorted(locs)))
            else:
                remaining.remove(match)
        out[kind] = {"missing": sorted(missing, key=str), "unexpected": sorted(([k, sorted(locs_)] for k, locs_ in remaining), key=str)}
    return out


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as tmp:
        d = diff(extracted(index_example(f"{tmp}/kb.db")), expected())
    total = 0
    for kind, parts in d.items():
        for label, items in parts.items():
            for item in items:
                print(f"{kind:<9} {label:<10} {item}")
                total += 1
    print(f"{total} differences")
    sys.exit(1 if total else 0)
