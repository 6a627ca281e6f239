"""The contracts: one suite per port, run against its real adapters and its in-memory fake.

The store's tests (those taking ``store``) run against the SQLite store, PostgreSQL and the
in-memory fake; the git reader, source trees, folder locator, embedder and LLM backends have one
module each, with their own parametrised fixture.

Sample facts set every attribute to a non-default value, so a column that is dropped, renamed or
decoded into the wrong type fails a round-trip assertion.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    ApiKind,
    CallKind,
    Component,
    Direction,
    EntityField,
    Evidence,
    Gap,
    Message,
    PersistenceEntity,
    Provenance,
    PurposeKind,
    Repository,
    Resource,
    ResourceType,
    Service,
    ServiceCall,
    ServiceFacts,
    ShapeField,
    TargetKind,
    Technology,
    Validation,
)
from orbitkb.domain.ports import KnowledgeStore, SearchDocument
from orbitkb.domain.runs import IndexedFile
from tests.support.stores import STORES, open_store


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    opened = open_store(request.param, tmp_path, request)
    yield opened
    opened.close()


def evidence(file: str, line: int) -> Evidence:
    return Evidence(file, line, line + 3, commit="c0ffee" * 6 + "beef", note=f"seen in {file}")


def repository(name: str, commit: str = "abc123") -> Repository:
    return Repository(
        name,
        f"/src/{name}",
        vcs="git",
        indexed_commit=commit,
        indexed_at="2024-05-01T10:00:00Z",
        roots=(".", "services"),
    )


def service_facts(
    repo: str, name: str, target: str = "billing", channel: str = "orders.created"
) -> ServiceFacts:
    """A service with two of every child, each attribute set away from its default."""
    sid = service_id(repo, name)
    svc = Service(
        sid, name, repo, f"services/{name}", "python", framework="fastapi", aliases=(f"{name}-svc", name.upper()),
        readme=f"The {name} service. Größe ✓", short_desc=f"{name} in one line", long_desc="Long text.",
        desc_provenance=Provenance.LLM, evidence=(evidence(f"services/{name}/main.py", 1),),
    )  # fmt: skip
    comps = tuple(
        Component(
            make_id("cmp", sid, n),
            sid,
            f"{n}Controller",
            f"services/{name}/{n.lower()}.py",
            kind="class",
            start_line=10 + i,
            end_line=40 + i,
            doc=f"Handles {n}.",
            summary=f"{n} summary",
            summary_provenance=Provenance.LLM,
        )  # fmt: skip
        for i, n in enumerate(("Zeta", "Alpha"))
    )
    apis = tuple(
        Api(
            make_id("api", sid, m, p),
            sid,
            m,
            p,
            f"{comps[0].name}.handle_{i}",
            comps[0].file_path,
            12 + i,
            20 + i,
            kind=ApiKind.HTTP,
            component_id=comps[0].id,
            channel=None,
            doc="Create an order.",
            summary="creates",
            description="Creates an order and publishes an event.",
            summary_provenance=Provenance.LLM,
            request_shape=(ShapeField("amount", "int", True), ShapeField("note", "str", None)),
            response_shape=(ShapeField("id", "uuid", True),),
            validations=(Validation("input_validation", "amount > 0", Provenance.LLM),),
            evidence=(evidence(comps[0].file_path, 12 + i),),
        )  # fmt: skip
        for i, (m, p) in enumerate((("POST", f"/{name}"), ("GET", f"/{name}/{{id}}")))
    )
    calls = tuple(
        ServiceCall(
            make_id("call", sid, t),
            sid,
            kind,
            t,
            target_kind=TargetKind.EXTERNAL,
            resource_type=ResourceType.SAAS,
            to_service_id=service_id(repo, t),
            from_api_id=apis[0].id,
            from_component_id=comps[0].id,
            method="POST",
            path=f"/v1/{t}",
            to_api_id=make_id("api", t),
            reason=f"charge via {t}",
            data_needed=("amount", "currency"),
            purpose_kind=PurposeKind.ENRICHMENT,
            confidence=0.25,
            evidence=(evidence(comps[0].file_path, 30),),
            provenance=Provenance.LLM,
        )  # fmt: skip
        for t, kind in ((target, CallKind.HTTP), (f"{target}-grpc", CallKind.GRPC))
    )
    entities = tuple(
        PersistenceEntity(
            make_id("ent", sid, e),
            sid,
            e,
            "sql_table",
            engine="postgres",
            class_name=e.title(),
            fields=(EntityField("id", "uuid", False, True), EntityField("total", "numeric", True, False)),
            description=f"{e} rows",
            evidence=(evidence(f"services/{name}/models.py", 5),),
            provenance=Provenance.LLM,
        )  # fmt: skip
        for e in ("orders", "audit_log")
    )
    messages = tuple(
        Message(
            make_id("msg", sid, d, c),
            sid,
            d,
            c,
            provider="kafka",
            api_id=apis[0].id,
            component_id=comps[1].id,
            description=f"{d} {c}",
            evidence=(evidence(comps[1].file_path, 7),),
            provenance=Provenance.LLM,
        )  # fmt: skip
        for d, c in ((Direction.PUBLISHES, channel), (Direction.CONSUMES, f"{channel}.dlq"))
    )
    techs = (
        Technology(make_id("tech", sid, "library", "httpx"), sid, "library", "httpx", "0.27",
                   (evidence(f"services/{name}/requirements.txt", 2),)),
        Technology(make_id("tech", sid, "language", "python"), sid, "language", "python", None,
                   (evidence(f"services/{name}/main.py", 1),)),
    )  # fmt: skip
    return ServiceFacts(svc, comps, apis, calls, entities, messages, files=(comps[0].file_path,), technologies=techs)


def resources(repo: str) -> list[Resource]:
    return [
        Resource(
            "postgres", repo, "database", "postgres", "postgres:16", (evidence("docker-compose.yml", 3),)
        ),
        Resource("kafka", repo, "broker", "kafka", None, (evidence("docker-compose.yml", 20),)),
    ]


def gaps(repo: str) -> list[Gap]:
    return [
        Gap(repo, "legacy/broken.py", "parse_error", "unexpected indent"),
        Gap(repo, "assets/logo.bin", "binary", "binary file"),
    ]


def files(repo: str) -> list[IndexedFile]:
    return [
        IndexedFile(repo, "services/orders/main.py", "a" * 64, 120, service_id(repo, "orders"), "python"),
        IndexedFile(repo, "README.md", "b" * 64, 10, None, None),
    ]


def documents(facts: list[ServiceFacts]) -> list[SearchDocument]:
    return [
        SearchDocument("service", f.service.id, f.service.id, f.service.name, f.service.name, f.service.name,
                       "python fastapi", f.service.short_desc or "")
        for f in facts
    ]  # fmt: skip


def replace(store: KnowledgeStore, repo: str, facts: list[ServiceFacts], **extra: object) -> None:
    store.replace_repository_facts(
        extra.get("repository") or repository(repo),  # type: ignore[arg-type]
        facts,
        extra.get("resources", resources(repo)),  # type: ignore[arg-type]
        extra.get("gaps", gaps(repo)),  # type: ignore[arg-type]
        extra.get("files", files(repo)),  # type: ignore[arg-type]
        extra.get("documents", documents(facts)),  # type: ignore[arg-type]
    )


@pytest.fixture
def samples() -> SimpleNamespace:
    return SimpleNamespace(
        evidence=evidence, repository=repository, service_facts=service_facts, resources=resources,
        gaps=gaps, files=files, documents=documents, replace=replace,
    )  # fmt: skip
