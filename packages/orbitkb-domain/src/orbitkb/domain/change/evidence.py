"""Where each fact a task matched is declared (file:line), loaded per service and only for the
services that end up in the answer: a full scan of every fact kind per request costs seconds
on a large system."""

from __future__ import annotations

from orbitkb.domain.model import Evidence, Message, PersistenceEntity, ServiceCall, Technology
from orbitkb.domain.ports import FactsReader


class EvidenceIndex:
    def __init__(self, store: FactsReader) -> None:
        self._store = store
        self._by_service: dict[str, dict[str, Evidence]] = {}

    def get(self, service_id: str, ref_id: str | None) -> Evidence | None:
        if not ref_id:
            return None
        known = self._by_service.get(service_id)
        if known is None:
            known = self._by_service[service_id] = self._load(service_id)
        return known.get(ref_id)

    def _load(self, sid: str) -> dict[str, Evidence]:
        store = self._store
        out: dict[str, Evidence] = {}
        for a in store.list_apis(sid):
            out[a.id] = Evidence(a.file, a.start_line, a.end_line)
        for c in store.list_components(sid):
            out[c.id] = Evidence(c.file_path, c.start_line, c.end_line)
        facts: list[PersistenceEntity | Message | Technology | ServiceCall] = [
            *store.list_entities(sid), *store.list_messages(sid), *store.list_technologies(sid),
            *store.list_calls(from_service_id=sid)]
        for fact in facts:
            if fact.evidence:
                out[fact.id] = fact.evidence[0]
        return out
