"""Dapr facts of one service: invocation URLs rewritten, state stores and topics given the engine
and broker of the component they name (a component scoped to other app ids is not this one's)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from attrs import evolve

from orbitkb.analysis.dapr.appids import AppId, Unit, app_ids
from orbitkb.analysis.dapr.components import Component, components
from orbitkb.analysis.dapr.invoke import sidecar_url
from orbitkb.analysis.facts import LinkedFacts

FRAMEWORK = "dapr"
#: RawMessage.provider written by analyzers for a Dapr topic: "dapr:<pubsub component name>"
PROVIDER_PREFIX = "dapr:"


class Dapr:
    def __init__(self, ids: Mapping[str, Sequence[AppId]], found: Sequence[Component]) -> None:
        self.ids = ids
        self.components = found

    @classmethod
    def read(cls, texts: Mapping[str, str], units: Iterable[Unit]) -> Dapr:
        return cls(app_ids(texts, units), components(texts))

    def aliases(self, service: str) -> list[str]:
        return [d.app_id for d in self.ids.get(service, ())]

    def _component(self, service: str, block: str, name: str | None) -> Component | None:
        mine = set(self.aliases(service)) | {service}
        found = [
            c for c in self.components
            if c.block == block and (name is None or c.name == name) and (not c.scopes or mine & set(c.scopes))
        ]  # fmt: skip
        techs = {c.technology for c in found}
        return found[0] if len(techs) == 1 and found[0].technology else None

    def apply(self, service: str, facts: LinkedFacts) -> LinkedFacts:
        calls = tuple(
            evolve(c, url=url) if (url := sidecar_url(c.url)) is not None else c for c in facts.calls
        )
        entities = tuple(
            evolve(e, engine_hint=found.technology if (found := self._component(service, "state", e.name)) else None)
            if e.framework == FRAMEWORK else e
            for e in facts.entities
        )  # fmt: skip
        messages = []
        for m in facts.messages:
            if m.provider.startswith(PROVIDER_PREFIX):
                name = m.provider[len(PROVIDER_PREFIX) :] or None
                found = self._component(service, "pubsub", name)
                m = evolve(m, provider=found.technology if found and found.technology else "dapr")
            messages.append(m)
        if calls == facts.calls and entities == facts.entities and messages == list(facts.messages):
            return facts
        return evolve(facts, calls=calls, entities=entities, messages=tuple(messages))
