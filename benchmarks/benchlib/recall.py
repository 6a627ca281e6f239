"""Extraction recall: the facts in the store compared with what synth.py generated on purpose.

Exact keys first (method + path as the framework writes it); a lenient variant also counts a
match when only the spelling of path parameters differs ({id}, :id, <int:id>)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_PARAM = re.compile(r"\{[^}/]*\}|:[A-Za-z_][A-Za-z0-9_]*|<[^>/]*>")


def loose(path: str | None) -> str:
    return _PARAM.sub("{}", (path or "").rstrip("/") or "/")


def _ratio(expected: set, found: set) -> dict[str, Any]:
    hit = len(expected & found)
    return {
        "expected": len(expected),
        "found": hit,
        "recall": round(hit / len(expected), 4) if expected else None,
        "unexpected": len(found - expected),
    }


def measure(store: Any, expected: dict) -> dict[str, Any]:
    services = store.list_services()
    by_id = {s.id: s.name for s in services}
    names: set[str] = set()
    alias_to_name: dict[str, str] = {}
    for s in services:
        names.add(s.name)
        for a in (s.name, *s.aliases):
            alias_to_name.setdefault(a, s.name)
    exp_names = {s["name"] for s in expected["services"]}

    def canon(name: str | None) -> str | None:
        return alias_to_name.get(name or "", name)

    apis = store.list_apis()
    found_api = {(by_id.get(a.service_id), a.method, a.path) for a in apis}
    exp_api = {(a["service"], a["method"], a["path"]) for a in expected["apis"]}
    calls = store.list_calls()
    found_call = {
        (by_id.get(c.from_service_id), by_id.get(c.to_service_id) or canon(c.target), c.method, c.path)
        for c in calls
    }
    exp_call = {(c["from"], c["to"], c["method"], c["path"]) for c in expected["calls"]}
    msgs = store.list_messages()
    found_msg = {(by_id.get(m.service_id), str(m.direction), m.channel, m.provider) for m in msgs}
    exp_msg = {(c["service"], c["direction"], c["channel"], c["provider"]) for c in expected["channels"]}
    ents = store.list_entities()
    found_ent = {(by_id.get(e.service_id), e.name) for e in ents}
    exp_ent = {(e["service"], e["name"]) for e in expected["entities"]}
    return {
        "services": _ratio(exp_names, names),
        "apis": _ratio(exp_api, found_api),
        "apis_loose_params": _ratio(_loose3(exp_api), _loose3(found_api)),
        "calls_edges": _ratio({c[:2] for c in exp_call}, {c[:2] for c in found_call}),
        "calls": _ratio(exp_call, found_call),
        "calls_loose_params": _ratio(
            {(*c[:3], loose(c[3])) for c in exp_call}, {(*c[:3], loose(c[3])) for c in found_call}
        ),
        "channels": _ratio(exp_msg, found_msg),
        "channels_ignoring_provider": _ratio({m[:3] for m in exp_msg}, {m[:3] for m in found_msg}),
        "entities": _ratio(exp_ent, found_ent),
        "totals_in_store": {
            "services": len(services),
            "apis": len(apis),
            "calls": len(calls),
            "messages": len(msgs),
            "entities": len(ents),
        },
    }


def _loose3(items: Iterable[tuple]) -> set[tuple]:
    return {(s, m, loose(p)) for s, m, p in items}


def misses(store: Any, expected: dict, kind: str, limit: int = 10) -> list[Any]:
    """A sample of expected facts the store lacks (for the report)."""
    by_id = {s.id: s.name for s in store.list_services()}
    if kind == "apis":
        found = {(by_id.get(a.service_id), a.method, a.path) for a in store.list_apis()}
        exp = sorted((a["service"], a["method"], a["path"]) for a in expected["apis"])
    elif kind == "calls":
        found = {
            (by_id.get(c.from_service_id), by_id.get(c.to_service_id), c.method, c.path)
            for c in store.list_calls()
        }
        exp = sorted((c["from"], c["to"], c["method"], c["path"]) for c in expected["calls"])
    elif kind == "channels":
        found = {
            (by_id.get(m.service_id), str(m.direction), m.channel, m.provider) for m in store.list_messages()
        }
        exp = sorted(
            (c["service"], c["direction"], c["channel"], c["provider"]) for c in expected["channels"]
        )
    else:
        found = {(by_id.get(e.service_id), e.name) for e in store.list_entities()}
        exp = sorted((e["service"], e["name"]) for e in expected["entities"])
    return [e for e in exp if e not in found][:limit]
