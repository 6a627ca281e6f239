"""Call targets resolved against the whole knowledge model (all repositories), then classified
internal / external / unknown with the vendor list. Ground truth wins: a target that names an
indexed service is internal, whatever any earlier guess said."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import evolve

from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.integrations import classify_target
from orbitkb.domain.model import Api, ResourceType, ServiceCall, ServiceFacts, TargetKind
from orbitkb.domain.paths import same_path as _same_path
from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.text import normalize_name


def classify_call(call: ServiceCall, catalog: ServiceCatalog) -> ServiceCall:
    if call.to_service_id is None:
        svc = catalog.match_target(call.target)
        if svc is not None and svc.id != call.from_service_id:
            return evolve(call, to_service_id=svc.id, target=svc.name, target_kind=TargetKind.INTERNAL,
                          resource_type=ResourceType.NOT_APPLICABLE)
    else:
        return evolve(call, target_kind=TargetKind.INTERNAL, resource_type=ResourceType.NOT_APPLICABLE)
    kind, rtype, vendor = classify_target(call.target)
    if kind == TargetKind.EXTERNAL and vendor:
        return evolve(call, target_kind=kind, resource_type=rtype, target=vendor)
    return evolve(call, target_kind=kind, resource_type=rtype if kind == TargetKind.EXTERNAL else
                  ResourceType.NOT_APPLICABLE)


def link_api(call: ServiceCall, apis: Sequence[Api]) -> ServiceCall:
    """Point a call at the callee API it reaches when method and path identify exactly one."""
    if call.to_api_id or not call.path or call.to_service_id is None:
        return call
    path = call.path.split("?", 1)[0]
    found = [a for a in apis if a.service_id == call.to_service_id and _same_path(a.path, path)
             and (call.method is None or a.method in (call.method.upper(), "ANY"))]
    return evolve(call, to_api_id=found[0].id) if len(found) == 1 else call


def classify_facts(facts: Sequence[ServiceFacts], catalog: ServiceCatalog,
                   store: KnowledgeStore | None = None) -> list[ServiceFacts]:
    out = [evolve(f, calls=tuple(classify_call(c, catalog) for c in f.calls)) for f in facts]
    if store is None:
        return out
    # APIs by service, built once: this runs for every call of a 300-service system
    by_service: dict[str, list[Api]] = {}
    for x in facts:
        for a in x.apis:
            by_service.setdefault(a.service_id, []).append(a)
    local = {x.service.id for x in facts}
    stored: dict[str, list[Api]] | None = None
    linked = []
    for f in out:
        calls = []
        for c in f.calls:
            if c.to_service_id and not c.to_api_id and c.path:
                if c.to_service_id not in local and stored is None:
                    stored = {}
                    for a in store.list_apis():
                        stored.setdefault(a.service_id, []).append(a)
                source = by_service if c.to_service_id in local else (stored or {})
                c = link_api(c, source.get(c.to_service_id, []))
            calls.append(c)
        linked.append(evolve(f, calls=tuple(calls)))
    return linked


def reconcile_other_repositories(store: KnowledgeStore, new: Iterable[ServiceFacts],
                                 catalog: ServiceCatalog) -> int:
    """Calls stored earlier (other repositories) that named a service we just indexed now point at
    it. Scoped to the names involved — never a whole-table rescan."""
    names: set[str] = set()
    for f in new:
        names.add(f.service.name)
        names.update(f.service.aliases)
    if not names:
        return 0
    variants = set(names)
    for n in names:  # the spellings a caller's configuration uses for a service's host
        base = normalize_name(n)
        variants.update({base, *(base + sfx for sfx in ("-service", "-svc", "-api", "-server", "-app", "_service"))})
    candidates = store.list_calls_to_target(sorted(variants))
    changed = []
    for call in candidates:
        if call.to_service_id is not None:
            continue
        updated = classify_call(call, catalog)
        if updated.to_service_id is not None:
            changed.append(link_api(updated, store.list_apis(updated.to_service_id)))
    if changed:
        store.update_calls(changed)
    return len(changed)
