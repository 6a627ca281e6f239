"""Dapr component YAML (``kind: Component``): the engine or broker behind each named component.

``metadata.name`` is the name the code uses (``save_state("orders", ...)``, ``/v1.0/publish/bus/x``);
``spec.type`` (``state.redis``, ``pubsub.kafka``) names the technology, mapped by
``components.json``; ``scopes`` limits which app ids may use it. Azure Container Apps write the
same component as ``componentType`` in a flat YAML file.
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


@cache
def _table() -> dict[str, dict[str, str | None]]:
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("components.json").read_text("utf-8")
    )
    return {block: data[block] for block in BLOCKS}


def technology(component_type: str) -> tuple[str, str | None] | None:
    """``pubsub.azure.servicebus.topics`` -> ("pubsub", "servicebus"); None for other blocks."""
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
