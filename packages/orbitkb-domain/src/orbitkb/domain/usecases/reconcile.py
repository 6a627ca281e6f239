"""Call targets resolved against the whole knowledge model (all repositories), then classified
internal / external / unknown with the vendor list. Ground truth wins: a target that names an
indexed service is internal, whatever any earlier guess said."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import evolve

from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.integrations import classify_target
from orbitkb.domain.model import ResourceType, ServiceCall, ServiceFacts, TargetKind
from orbitkb.domain.ports import KnowledgeStore


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


def classify_facts(facts: Sequence[ServiceFacts], catalog: ServiceCatalog) -> list[ServiceFacts]:
    return [evolve(f, calls=tuple(classify_call(c, catalog) for c in f.calls)) for f in facts]


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
    candidates = store.list_calls_to_target(sorted(names))
    changed = []
    for call in candidates:
        if call.to_service_id is not None:
            continue
        updated = classify_call(call, catalog)
        if updated.to_service_id is not None:
            changed.append(updated)
    if changed:
        store.update_calls(changed)
    return len(changed)
