"""Spring Data REST: repository interfaces exported as HTTP resources.

A repository annotated ``@RepositoryRestResource`` (unless ``exported = false``), or any public
repository when the service uses Spring Data REST (the default detection strategy), serves
``/{path}`` (GET, POST) and ``/{path}/{id}`` (GET, PUT, PATCH, DELETE) under
``spring.data.rest.base-path``; ``path`` defaults to the uncapitalized plural of the entity name.
Query methods it declares are served at ``/{path}/search/{method}``.
"""

from __future__ import annotations

from typing import Any

from orbitkb.analysis.facts import RawApi
from orbitkb.analysis.jvm.apis import ann_values
from orbitkb.analysis.jvm.entities import repository_entity
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex, join_path, render
from orbitkb.analysis.jvm.tables import (
    DATA_REST_BASE,
    DATA_REST_COLLECTION,
    DATA_REST_IMPORT,
    DATA_REST_ITEM,
    DATA_REST_RESOURCES,
    IRREGULAR_PLURALS,
)


def uses_data_rest(index: ServiceIndex) -> bool:
    return any(i.startswith(DATA_REST_IMPORT) for ref in index.classes for i in ref.file.get("imports", ()))


def plural(word: str) -> str:
    """English plural of a class name's last word (Evo Inflector's common rules): Order -> Orders."""
    cut = max((i for i, c in enumerate(word) if c.isupper()), default=0)
    head, last = word[:cut], word[cut:]
    low = last.lower()
    if low in IRREGULAR_PLURALS:
        irregular = IRREGULAR_PLURALS[low]
        return head + (irregular.capitalize() if last[:1].isupper() else irregular)
    if low.endswith("y") and low[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return head + last[:-1] + "ies"
    if low.endswith(("s", "x", "z", "ch", "sh")):
        return head + last + "es"
    return head + last + "s"


def _exported(ann: list[Any] | None) -> bool:
    values = ann_values(ann, "exported")
    return not (values and isinstance(values[0], list) and values[0] and str(values[0][0][1]) == "false")


def data_rest_apis(index: ServiceIndex, ref: ClassRef, by_default: bool, framework: str) -> list[RawApi]:
    """The resources one repository interface exports (none when it is not exported)."""
    managed = repository_entity(index, ref)
    if managed is None:
        return []
    ann = ref.ann(*DATA_REST_RESOURCES)
    if (ann is None and not (by_default and "public" in ref.data["mods"])) or not _exported(ann):
        return []
    entity = managed[0].rsplit(".", 1)[-1]
    paths = [v for v in ann_values(ann, "path") if isinstance(v, list)]
    name = render(index.resolve(paths[0], ref)) if paths else ""
    name = name or plural(entity[:1].lower() + entity[1:])
    line = ann[2] if ann is not None else ref.data.get("decl", ref.data["line"])
    out = []
    for suffix, verbs in (("", DATA_REST_COLLECTION), ("/{id}", DATA_REST_ITEM)):
        for verb, handler in verbs:
            out.append(_api(ref, verb, join_path(DATA_REST_BASE, name) + suffix, handler, line, framework))
    for m in ref.data["methods"]:
        if m["name"] == "<init>" or "default" in m["mods"] or not _exported(_rest_ann(m)):
            continue
        path = join_path(DATA_REST_BASE, name, "search", m["name"])
        out.append(_api(ref, "GET", path, m["name"], m["line"], framework))
    return out


def _rest_ann(m: dict[str, Any]) -> list[Any] | None:
    return next((a for a in m["anns"] if a[0] == "RestResource"), None)


def _api(ref: ClassRef, verb: str, path: str, method: str, line: int, framework: str) -> RawApi:
    return RawApi(
        method=verb,
        path=path,
        handler=f"{ref.name}.{method}",
        file=ref.path,
        start_line=line,
        end_line=ref.data["end"],
        component=ref.name,
        doc=ref.data.get("doc"),
        framework=framework,
    )
