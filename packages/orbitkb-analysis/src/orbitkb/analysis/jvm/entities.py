"""Persisted entities: JPA @Entity/@Table, Spring Data @Document/@RedisHash/@Node and relational
@Table, Panache MongoDB entities, with inherited @MappedSuperclass fields; Spring Data and Panache
repositories name the entity they manage and stand in for it when its class is not in the service."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.facts import RawEntity
from orbitkb.analysis.jvm.apis import ann_values
from orbitkb.analysis.jvm.resolve import ClassRef, ServiceIndex, render
from orbitkb.analysis.jvm.tables import (
    CLASS_REPOSITORY_FRAMEWORKS,
    COLLECTION_AS_CLASS,
    NON_JPA_ENTITY_FRAMEWORKS,
    NOT_NULL_ANNOTATIONS,
    PANACHE_MONGO_ENTITIES,
    PRIMITIVES,
    REPOSITORIES,
    SKIP_FIELD_ANNOTATIONS,
    STORE_ANNOTATIONS,
    STORE_IMPORTS,
)

_PK = {"Id", "EmbeddedId", "PrimaryKey"}
_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z0-9])")


def snake(name: str) -> str:
    """Spring Boot's CamelCaseToUnderscoresNamingStrategy: OrderItem -> order_item."""
    return _SPLIT.sub("_", name.replace(".", "_")).lower()


def _uncapitalize(name: str) -> str:
    return name[:1].lower() + name[1:]


def _name_attr(index: ServiceIndex, ref: ClassRef, ann: list[Any] | None, *attrs: str) -> str | None:
    values = [v for v in ann_values(ann, *attrs) if isinstance(v, list)]
    if not values:
        return None
    text = render(index.resolve(values[0], ref))
    return text or None


def _store(ref: ClassRef) -> tuple[str, str | None, str] | None:
    for prefix, kind, engine, framework in STORE_IMPORTS:
        if any(i.startswith(prefix) for i in ref.file.get("imports", ())):
            return kind, engine, framework
    return None


def entity_of(index: ServiceIndex, ref: ClassRef) -> RawEntity | None:
    if ref.data["kind"] in ("interface", "file", "enum", "annotation"):
        return None
    entity = ref.ann("Entity")
    table = ref.ann("Table")
    store = _store(ref) if entity is not None else None
    if store is not None and store[2] in NON_JPA_ENTITY_FRAMEWORKS:
        name = _name_attr(index, ref, ref.ann("CqlName"), "value") or snake(ref.name)
        return _entity(index, ref, name, store[0], store[1], store[2])
    if entity is not None:
        explicit = _name_attr(index, ref, table, "name", "value") if table else None
        name = explicit or snake(_name_attr(index, ref, entity, "name", "value") or ref.name)
        return _entity(index, ref, name, "sql_table", None, "jpa")
    if ref.ann("MongoEntity") is not None or any(s[0].rsplit(".", 1)[-1] in PANACHE_MONGO_ENTITIES for s in ref.data["supers"]):
        name = _name_attr(index, ref, ref.ann("MongoEntity"), "collection") or ref.name
        return _entity(index, ref, name, "document_collection", "mongodb", "panache-mongodb")
    for ann_name, (kind, engine, framework, attrs) in STORE_ANNOTATIONS.items():
        ann = ref.ann(ann_name)
        if ann is None:
            continue
        store = _store(ref)
        if ann_name == "Document" and (store is not None and store[2] != framework or "indexName" in ann[1]):
            kind, engine, framework = (
                store if store is not None else ("search_index", "elasticsearch", "spring-data-elasticsearch")
            )
            attrs = ("indexName", "collection", "value")
        name = _name_attr(index, ref, ann, *attrs) or (_uncapitalize(ref.name) if attrs else ref.name)
        return _entity(index, ref, name, kind, engine, framework)
    if table is not None:
        store = _store(ref)
        if store is not None:
            name = _name_attr(index, ref, table, "value", "name") or snake(ref.name)
            return _entity(index, ref, name, store[0], store[1], store[2])
    return None


def _entity(
    index: ServiceIndex, ref: ClassRef, name: str, kind: str, engine: str | None, framework: str
) -> RawEntity:
    fields: list[tuple[str, str, bool | None, bool]] = []
    seen: set[str] = set()
    for owner in [*reversed(_mapped_supers(index, ref, jpa=framework == "jpa")), ref]:
        for fld in owner.data["fields"]:
            row = _field(fld, owner.file.get("lang") == "kotlin")
            if row is not None and row[0] not in seen:
                seen.add(row[0])
                fields.append(row)
    return RawEntity(
        name=name,
        kind=kind,
        file=ref.path,
        start_line=ref.data.get("decl", ref.data["line"]),
        end_line=ref.data["end"],
        class_name=ref.name,
        fields=tuple(fields),
        engine_hint=engine,
        framework=framework,
    )


def _mapped_supers(index: ServiceIndex, ref: ClassRef, jpa: bool) -> list[ClassRef]:
    """Superclasses whose fields land in the same table (JPA: @MappedSuperclass) or document."""
    out: list[ClassRef] = []
    queue = index.supers(ref)
    while queue and len(out) < 8:
        sup = queue.pop(0)
        if sup.ann("MappedSuperclass") is not None or (not jpa and sup.data["kind"] == "class"):
            out.append(sup)
            queue.extend(index.supers(sup))
    return out


def _field(fld: dict[str, Any], kotlin: bool) -> tuple[str, str, bool | None, bool] | None:
    mods = set(fld["mods"])
    anns = {a[0]: a for a in fld["anns"]}
    if "static" in mods or "transient" in mods or SKIP_FIELD_ANNOTATIONS & anns.keys():
        return None
    type_text = fld["type"]
    pk = bool(_PK & anns.keys())
    nullable: bool | None = None
    for ann_name in ("Column", "JoinColumn", "Basic", "ManyToOne", "OneToOne"):
        attr = "optional" if ann_name in ("Basic", "ManyToOne", "OneToOne") else "nullable"
        values = ann_values(anns.get(ann_name), attr)
        if values and isinstance(values[0], list) and values[0]:
            word = str(values[0][0][1]).lower()
            if word in ("true", "false"):
                nullable = word == "true"
    if nullable is None and (pk or NOT_NULL_ANNOTATIONS & anns.keys() or type_text in PRIMITIVES):
        nullable = False
    if nullable is None and kotlin and type_text:
        nullable = type_text.endswith("?")
    return fld["name"], type_text, nullable, pk


def repository_entity(index: ServiceIndex, ref: ClassRef) -> tuple[str, tuple[str, str | None, str]] | None:
    """(entity class name, repository signature) for ``interface X extends JpaRepository<E, ID>``
    (and Panache's ``class X implements PanacheMongoRepository<E>``)."""
    if ref.data["kind"] not in ("interface", "class"):
        return None
    for sup in ref.data["supers"]:
        base = sup[0].rsplit(".", 1)[-1]
        args = sup[1]
        sig = REPOSITORIES.get(base)
        if sig is not None and args and (ref.data["kind"] == "interface" or sig[2] in CLASS_REPOSITORY_FRAMEWORKS):
            return args[0], sig
        parent = index.find(sup[0])
        if parent is not None and parent is not ref and args and ref.data["kind"] == "interface":
            inherited = repository_entity(index, parent)
            if inherited is not None:
                return args[0], inherited[1]
    return None


def stand_in_name(class_name: str, kind: str, framework: str) -> str:
    """The table/collection a repository's entity class is stored under by default."""
    if kind != "document_collection":
        return snake(class_name)
    return class_name if framework in COLLECTION_AS_CLASS else _uncapitalize(class_name)


def repository_stand_in(ref: ClassRef, class_name: str, sig: tuple[str, str | None, str]) -> RawEntity:
    kind, engine, framework = sig
    name = stand_in_name(class_name, kind, framework)
    return RawEntity(
        name=name,
        kind=kind,
        file=ref.path,
        start_line=ref.data.get("decl", ref.data["line"]),
        end_line=ref.data["end"],
        class_name=class_name,
        engine_hint=engine,
        framework=framework,
    )
