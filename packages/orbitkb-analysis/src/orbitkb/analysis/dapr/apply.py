"""Dapr facts of one service: invocation URLs rewritten, state stores and topics given the engine
and broker of the component they name (a component scoped to other app ids is not this one's); a
binding to a broker consumed by the app it is scoped to (or, unscoped, by an app serving its route),
and written by the code that invokes it by name; a declarative subscription's topic consumed the
same way."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from attrs import evolve

from orbitkb.analysis.dapr.appids import AppId, Unit, app_ids
from orbitkb.analysis.dapr.components import (
    Binding,
    Component,
    Subscription,
    bindings,
    components,
    subscriptions,
)
from orbitkb.analysis.dapr.invoke import sidecar_url
from orbitkb.analysis.facts import Env, Expr, LinkedFacts, RawMessage, Unknown, placeholder

FRAMEWORK = "dapr"
#: RawMessage.provider written by analyzers for a Dapr topic: "dapr:<pubsub component name>"
PROVIDER_PREFIX = "dapr:"
#: RawMessage.provider written by analyzers for an output binding: "dapr-binding:<binding name>"
BINDING_PREFIX = "dapr-binding:"
_PLACEHOLDER = re.compile(r"\$\{[^:}]+(?::([^}]*))?\}")
#: Methods Dapr delivers an input binding's events with.
_DELIVERY = frozenset({"POST", "ANY", "OPTIONS"})


def component_label(name: Expr | None) -> str:
    """A component's name as analyzers write it after ``dapr:``: the literal, ``${VAR:default}`` for
    one read from env (the default is the component ``_component`` looks up), else ""."""
    if name is None:
        return ""
    if (text := name.literal()) is not None:
        return text
    if len(name.parts) == 1 and isinstance(part := name.parts[0], Env):
        return placeholder(part.name, part.default)
    return ""


class Dapr:
    def __init__(
        self,
        ids: Mapping[str, Sequence[AppId]],
        found: Sequence[Component],
        bound: Sequence[Binding] = (),
        subscribed: Sequence[Subscription] = (),
    ) -> None:
        self.ids = ids
        self.components = found
        self.bindings = bound
        self.subscriptions = subscribed

    @classmethod
    def read(cls, texts: Mapping[str, str], units: Iterable[Unit]) -> Dapr:
        return cls(app_ids(texts, units), components(texts), bindings(texts), subscriptions(texts))

    def aliases(self, service: str) -> list[str]:
        return [d.app_id for d in self.ids.get(service, ())]

    def _component(self, service: str, block: str, name: str | None) -> Component | None:
        """The component of that name this app may use; a name read from configuration
        (``${DAPR_STORE:carts}``) is its default, or any one of them when it has none."""
        mine = set(self.aliases(service)) | {service}
        if name is not None and (m := _PLACEHOLDER.fullmatch(name)):
            name = m.group(1)
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
        for m in [*facts.messages, *self._subscribed(service, facts)]:
            if m.provider.startswith(BINDING_PREFIX):
                messages += self._written(service, m)
                continue
            if m.provider.startswith(PROVIDER_PREFIX):
                name = m.provider[len(PROVIDER_PREFIX) :] or None
                found = self._component(service, "pubsub", name)
                m = evolve(m, provider=found.technology if found and found.technology else "dapr")
            messages.append(m)
        messages += self._read(service, facts)
        if calls == facts.calls and entities == facts.entities and messages == list(facts.messages):
            return facts
        return evolve(facts, calls=calls, entities=entities, messages=tuple(messages))

    def _mine(self, service: str, b: Binding | Subscription) -> bool:
        return bool(set(b.scopes) & ({service} | set(self.aliases(service))))

    def _served(self, facts: LinkedFacts) -> set[str]:
        return {a.path.rstrip("/") for a in facts.apis if a.kind == "http" and a.method in _DELIVERY}

    def _subscribed(self, service: str, facts: LinkedFacts) -> list[RawMessage]:
        """Declarative subscriptions of this app: scoped to it, or unscoped and served by it."""
        if not self.aliases(service) or not self.subscriptions:
            return []
        served = self._served(facts)
        return [
            RawMessage("consumes", Expr.lit(s.topic), PROVIDER_PREFIX + s.pubsub, s.file, s.line, s.line,
                       client=FRAMEWORK)
            for s in self.subscriptions
            if (self._mine(service, s) if s.scopes else any(r.rstrip("/") in served for r in s.routes))
        ]  # fmt: skip

    def _read(self, service: str, facts: LinkedFacts) -> list[RawMessage]:
        """Input bindings Dapr delivers to this app: scoped to it, or unscoped and served by it."""
        if not self.aliases(service):
            return []
        routes = self._served(facts)
        out = []
        for b in self.bindings:
            if b.scopes and not self._mine(service, b) or not b.scopes and b.route.rstrip("/") not in routes:
                continue
            out += [RawMessage("consumes", Expr.lit(c), b.broker, b.file, b.line, b.line, client=FRAMEWORK)
                    for c in b.inputs]  # fmt: skip
        return out

    def _written(self, service: str, m: RawMessage) -> list[RawMessage]:
        """An output binding invoked by name: its channels; none when it is no broker (smtp, cron);
        one gap with the name when no component declares it."""
        name = m.provider[len(BINDING_PREFIX) :]
        found = [b for b in self.bindings if b.name == name and (not b.scopes or self._mine(service, b))]
        if found:  # a binding that is no broker (smtp, cron) writes to no channel
            return [evolve(m, channel=Expr.lit(c), provider=found[0].broker) for c in found[0].outputs]
        return [evolve(m, channel=Expr((Unknown(f"dapr binding {name}"),)), provider=FRAMEWORK)]
