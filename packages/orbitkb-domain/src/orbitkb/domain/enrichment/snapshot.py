"""The facts of the services being enriched, held in memory during a run, with their changes.

Reading everything once keeps store access on one thread and lets later phases see earlier
phases' answers (a component sees its endpoints' new summaries) before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from orbitkb.domain.model import Api, Component, Message, PersistenceEntity, Service, ServiceCall
from orbitkb.domain.ports import KnowledgeStore


class Snapshot:
    def __init__(
        self,
        services: Sequence[Service],
        apis: Iterable[Api],
        components: Iterable[Component],
        calls: Iterable[ServiceCall],
        entities: Iterable[PersistenceEntity],
        messages: Iterable[Message],
    ) -> None:
        self.services = sorted(services, key=lambda s: (s.name, s.id))
        self._services = {s.id: s for s in self.services}
        self.apis = {a.id: a for a in apis}
        self.components = {c.id: c for c in components}
        self.calls = {c.id: c for c in calls}
        self.entities = {e.id: e for e in entities}
        self.messages = {m.id: m for m in messages}
        self._changed: dict[str, set[str]] = {k: set() for k in ("api", "comp", "svc", "call", "ent", "msg")}

    @classmethod
    def load(cls, store: KnowledgeStore, repository: str, service_ids: Sequence[str] = ()) -> Snapshot:
        services = [s for s in store.list_services(repository) if not service_ids or s.id in service_ids]
        apis: list[Api] = []
        comps: list[Component] = []
        calls: list[ServiceCall] = []
        ents: list[PersistenceEntity] = []
        msgs: list[Message] = []
        for s in services:
            apis += store.list_apis(s.id)
            comps += store.list_components(s.id)
            calls += store.list_calls(from_service_id=s.id)
            ents += store.list_entities(s.id)
            msgs += store.list_messages(s.id)
        return cls(services, apis, comps, calls, ents, msgs)

    # -- reads (sorted, so prompts and hashes are stable)
    def service(self, service_id: str) -> Service:
        return self._services[service_id]

    def apis_of(self, service_id: str) -> list[Api]:
        return sorted((a for a in self.apis.values() if a.service_id == service_id), key=lambda a: a.id)

    def apis_of_component(self, component_id: str) -> list[Api]:
        return sorted((a for a in self.apis.values() if a.component_id == component_id), key=lambda a: a.id)

    def loose_apis_of(self, service_id: str) -> list[Api]:
        return [a for a in self.apis_of(service_id) if a.component_id not in self.components]

    def components_of(self, service_id: str) -> list[Component]:
        return sorted((c for c in self.components.values() if c.service_id == service_id), key=lambda c: c.id)

    def components_with_apis(self) -> list[Component]:
        used = {a.component_id for a in self.apis.values()}
        return sorted((c for c in self.components.values() if c.id in used), key=lambda c: c.id)

    def calls_of(self, service_id: str) -> list[ServiceCall]:
        return sorted((c for c in self.calls.values() if c.from_service_id == service_id), key=lambda c: c.id)

    def calls_of_api(self, api_id: str) -> list[ServiceCall]:
        return sorted((c for c in self.calls.values() if api_id in c.from_api_ids), key=lambda c: c.id)

    def entities_of(self, service_id: str) -> list[PersistenceEntity]:
        return sorted((e for e in self.entities.values() if e.service_id == service_id), key=lambda e: e.id)

    def messages_of(self, service_id: str) -> list[Message]:
        return sorted((m for m in self.messages.values() if m.service_id == service_id), key=lambda m: m.id)

    def messages_of_api(self, api_id: str) -> list[Message]:
        return sorted((m for m in self.messages.values() if api_id in m.api_ids), key=lambda m: m.id)

    # -- changes
    def put_api(self, api: Api) -> None:
        self.apis[api.id] = api
        self._changed["api"].add(api.id)

    def put_component(self, component: Component) -> None:
        self.components[component.id] = component
        self._changed["comp"].add(component.id)

    def put_service(self, service: Service) -> None:
        self._services[service.id] = service
        self.services = [self._services[s.id] for s in self.services]
        self._changed["svc"].add(service.id)

    def put_calls(self, calls: Iterable[ServiceCall]) -> None:
        for c in calls:
            self.calls[c.id] = c
            self._changed["call"].add(c.id)

    def put_entities(self, entities: Iterable[PersistenceEntity]) -> None:
        for e in entities:
            self.entities[e.id] = e
            self._changed["ent"].add(e.id)

    def put_messages(self, messages: Iterable[Message]) -> None:
        for m in messages:
            self.messages[m.id] = m
            self._changed["msg"].add(m.id)

    def write(self, store: KnowledgeStore) -> None:
        """Write what changed, each kind sorted by id. Calls are upserted: new ones are the
        calls the LLM proposed."""
        ch = self._changed
        if ch["api"]:
            store.update_apis([self.apis[i] for i in sorted(ch["api"])])
        if ch["call"]:
            store.update_calls([self.calls[i] for i in sorted(ch["call"])])
        if ch["comp"]:
            store.update_components([self.components[i] for i in sorted(ch["comp"])])
        if ch["svc"]:
            store.update_services([self._services[i] for i in sorted(ch["svc"])])
        if ch["ent"]:
            store.update_entities([self.entities[i] for i in sorted(ch["ent"])])
        if ch["msg"]:
            store.update_messages([self.messages[i] for i in sorted(ch["msg"])])
