"""Small facts for the SQLite integration tests: a repository snapshot of N services."""

from __future__ import annotations

import pytest

from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, CallKind, Repository, Service, ServiceCall, ServiceFacts
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import IndexedFile


def snapshot(repo: str, services: int, files_per_service: int = 2, tag: str = "v1") -> dict[str, object]:
    """Arguments for replace_repository_facts: services with an API and a call each, plus files."""
    facts, files, docs = [], [], []
    for i in range(services):
        name = f"svc-{i:03d}"
        sid = service_id(repo, name)
        api = Api(make_id("api", sid, tag), sid, "GET", f"/{name}/{tag}", "handler", f"{name}/app.py", 1, 5)
        call = ServiceCall(make_id("call", sid, tag), sid, CallKind.HTTP, f"svc-{(i + 1) % services:03d}")
        facts.append(ServiceFacts(Service(sid, name, repo, name, "python"), apis=(api,), calls=(call,)))
        files += [
            IndexedFile(repo, f"{name}/f{j}.py", f"{j:064d}", j, sid, "python")
            for j in range(files_per_service)
        ]
        docs.append(SearchDocument("service", sid, sid, name, name, name, tag, f"service {name} {tag}"))
    return {
        "repository": Repository(repo, f"/src/{repo}", indexed_commit=tag),
        "services": facts,
        "resources": [],
        "gaps": [],
        "files": files,
        "documents": docs,
    }


@pytest.fixture
def make_snapshot():
    return snapshot
