"""Dapr component YAML (``kind: Component``): the engine or broker behind each named component.

``metadata.name`` is the name the code uses (``save_state("orders", ...)``, ``/v1.0/publish/bus/x``);
``spec.type`` (``state.redis``, ``pubsub.kafka``) names the technology, mapped by
``components.json``; ``scopes`` limits which app ids may use it. Azure Container Apps write the
same component as ``componentType`` in a flat YAML file. A binding to a broker (``bindings.mqtt``,
``bindings.kafka``) names in its metadata the topic or queue it reads (input) or writes (output).
A declarative subscription (``kind: Subscription``) delivers a topic of a pub/sub component to the
route of the apps it is scoped to.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from importlib import resources
from typing import Any

import yaml
from attrs import frozen

from orbitkb.analysis import yamlines

BLOCKS = ("state", "pubsub")


@frozen
class Component:
    name: str
    block: str  # state | pubsub
    technology: str | None  # engine (state) or broker (pubsub); None when in memory or unknown
    file: str
    line: int
    scopes: tuple[str, ...] = ()


@frozen
class Binding:
    """A Dapr binding: the app reads ``inputs`` at ``POST /<route>`` and writes ``outputs`` (both
    empty, and ``broker`` "", for a binding that is no broker: smtp, cron, http, a database)."""

    name: str
    broker: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    route: str
    file: str
    line: int
    scopes: tuple[str, ...] = ()


@cache
def _bindings() -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("components.json").read_text("utf-8")
    )
    return {k: (v[0], tuple(v[1]), tuple(v[2])) for k, v in data["bindings"].items()}


def _values(spec: Mapping[str, Any], keys: tuple[str, ...]) -> tuple[str, ...]:
    """Plain metadata values of ``keys`` (``topics: "a,b"`` is two), never a secret reference."""
    items = spec.get("metadata")
    found = {
        str(i.get("name")): i["value"]
        for i in items if isinstance(i, Mapping) and isinstance(i.get("value"), (str, int))
    } if isinstance(items, list) else {}  # fmt: skip
    out: list[str] = []
    for key in keys:
        out += [v.strip() for v in str(found.get(key, "")).split(",") if v.strip() and "{" not in v]
    return tuple(dict.fromkeys(out))


def binding(doc: Mapping[str, Any], file: str) -> Binding | None:
    """A ``kind: Component`` of type ``bindings.<broker>``; None for any other document."""
    meta, spec = doc.get("metadata"), doc.get("spec")
    if doc.get("kind") != "Component" or not isinstance(meta, Mapping) or not isinstance(spec, Mapping):
        return None
    name, kind = meta.get("name"), str(spec.get("type") or "").strip().lower()
    if not isinstance(name, str) or not kind.startswith("bindings."):
        return None
    broker, reads, writes = _bindings().get(
        kind.removeprefix("bindings."), ("", (), ())
    )  # smtp, cron: no channel
    direction = {d.strip() for d in ",".join(_values(spec, ("direction",))).split(",") if d.strip()}
    inputs = _values(spec, reads) if not direction or "input" in direction else ()
    outputs = _values(spec, writes) if not direction or "output" in direction else ()
    route = (_values(spec, ("route",)) or ("/" + name,))[0]
    scopes = doc.get("scopes")
    return Binding(
        name, broker, inputs, outputs, "/" + route.lstrip("/"), file,
        yamlines.line_of(meta, "name", yamlines.line_of(doc, "kind")),
        tuple(str(s) for s in scopes) if isinstance(scopes, list) else (),
    )  # fmt: skip


@cache
def _table() -> dict[str, dict[str, str | None]]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("components.json").read_text("utf-8")
    )
    return {block: data[block] for block in BLOCKS}


def technology(component_type: str) -> tuple[str, str | None] | None:
    """``pubsub.azure.servicebus.topics`` -> ("pubsub", "azure-servicebus"); None for other blocks."""
    block, _, rest = component_type.strip().lower().partition(".")
    if block not in BLOCKS or not rest:
        return None
    table = _table()[block]
    key = rest
    while key:
        if key in table:
            return block, table[key]
        key = key.rpartition(".")[0]
    return block, None


def _one(doc: Mapping[str, Any], file: str) -> Component | None:
    meta = doc.get("metadata")
    spec = doc.get("spec")
    if doc.get("kind") == "Component" and isinstance(meta, Mapping) and isinstance(spec, Mapping):
        name, kind, where = meta.get("name"), spec.get("type"), meta
    elif "componentType" in doc:  # Container Apps: a flat component file
        name, kind, where = doc.get("name"), doc.get("componentType"), doc
    else:
        return None
    if not isinstance(name, str) or not isinstance(kind, str):
        return None
    found = technology(kind)
    if found is None:
        return None
    scopes = doc.get("scopes")
    line = yamlines.line_of(where, "name", yamlines.line_of(doc, "kind"))
    return Component(
        name, found[0], found[1], file, line,
        tuple(str(s) for s in scopes) if isinstance(scopes, list) else (),
    )  # fmt: skip


def components(texts: Mapping[str, str]) -> list[Component]:
    """Every state store and pub/sub component declared in the repository's YAML."""
    out: list[Component] = []
    for path in sorted(texts):
        if not path.endswith((".yaml", ".yml")):
            continue
        text = texts[path]
        if "state." not in text and "pubsub." not in text:
            continue
        if "kind: Component" not in text and "componentType" not in text:
            continue
        for doc in _docs(text):
            found = _one(doc, path) if isinstance(doc, Mapping) else None
            if found is not None:
                out.append(found)
    return out


def _docs(text: str) -> Iterator[Any]:
    try:
        yield from yamlines.load_all(text)
    except (yaml.YAMLError, ValueError):  # a broken YAML file declares nothing
        return


def bindings(texts: Mapping[str, str]) -> list[Binding]:
    """Every binding declared in the repository's YAML."""
    out: list[Binding] = []
    for path in sorted(texts):
        text = texts[path]
        if not path.endswith((".yaml", ".yml")) or "bindings." not in text or "kind: Component" not in text:
            continue
        out += [
            b for doc in _docs(text) if isinstance(doc, Mapping) and (b := binding(doc, path)) is not None
        ]
    return out


@frozen
class Subscription:
    """``kind: Subscription``: ``topic`` on the pub/sub ``pubsub`` delivered at ``routes``."""

    topic: str
    pubsub: str
    routes: tuple[str, ...]
    file: str
    line: int
    scopes: tuple[str, ...] = ()


def _routes(spec: Mapping[str, Any]) -> tuple[str, ...]:
    """``route: /x`` (v1alpha1), or ``routes: {default: /x, rules: [{path: /y}]}`` (v2alpha1)."""
    found: list[Any] = [spec.get("route")]
    routes = spec.get("routes")
    if isinstance(routes, Mapping):
        found.append(routes.get("default"))
        rules = routes.get("rules")
        found += [r.get("path") for r in rules if isinstance(r, Mapping)] if isinstance(rules, list) else []
    return tuple("/" + r.strip().lstrip("/") for r in found if isinstance(r, str) and r.strip())


def subscription(doc: Mapping[str, Any], file: str) -> Subscription | None:
    spec = doc.get("spec")
    if doc.get("kind") != "Subscription" or not isinstance(spec, Mapping):
        return None
    topic, pubsub = spec.get("topic"), spec.get("pubsubname")
    if not isinstance(topic, str) or not topic.strip() or not isinstance(pubsub, str):
        return None
    scopes = doc.get("scopes")
    return Subscription(
        topic.strip(), pubsub.strip(), _routes(spec), file, yamlines.line_of(spec, "topic", yamlines.line_of(doc, "kind")),
        tuple(str(s) for s in scopes) if isinstance(scopes, list) else (),
    )  # fmt: skip


def subscriptions(texts: Mapping[str, str]) -> list[Subscription]:
    """Every declarative Dapr subscription in the repository's YAML."""
    out: list[Subscription] = []
    for path in sorted(texts):
        text = texts[path]
        if (
            not path.endswith((".yaml", ".yml"))
            or "kind: Subscription" not in text
            or "pubsubname" not in text
        ):
            continue
        out += [
            s
            for doc in _docs(text)
            if isinstance(doc, Mapping) and (s := subscription(doc, path)) is not None
        ]
    return out
