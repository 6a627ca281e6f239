"""Every tool's readOnlyHint matches what it does: each tool is called on a real indexed git
repository through a store that records writes, and tools/list must say read-only exactly for
the tools that wrote nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import mcp
from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.usecases.indexing import IndexRequest
from orbitkb.mcp.server import build_server
from tests.integration.git.test_git_adapter import git

WRITES = ("add_", "put_", "update_", "replace_", "upsert_", "remove_", "delete_")


class RecordingStore:
    """The in-memory store, noting the name of every writing method called (a fake, not a mock)."""

    def __init__(self, inner: InMemoryKnowledgeStore) -> None:
        self._inner = inner
        self.writes: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name.startswith(WRITES) and callable(attr):
            def recorded(*args: Any, **kwargs: Any) -> Any:
                self.writes.append(name)
                return attr(*args, **kwargs)
            return recorded
        if name == "analysis_cache" and callable(attr):
            return lambda: _RecordingCache(attr(), self.writes)
        return attr


class _RecordingCache:
    def __init__(self, inner: Any, writes: list[str]) -> None:
        self._inner, self._writes = inner, writes

    def get_many(self, keys: Any) -> Any:
        return self._inner.get_many(keys)

    def put_many(self, items: Any) -> None:
        self._writes.append("analysis_cache.put_many")
        self._inner.put_many(items)


def make_repo(root: Path) -> tuple[str, str]:
    git(root, "init", "-q", "-b", "main")
    (root / "billing").mkdir()
    (root / "billing" / "requirements.txt").write_text("fastapi\n")
    (root / "billing" / "main.py").write_text(
        "from fastapi import FastAPI\napp = FastAPI()\n\n@app.get('/invoices/{id}')\ndef invoice(id: int):\n"
        "    return {'id': id}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "billing")
    first = git(root, "rev-parse", "HEAD")
    (root / "billing" / "main.py").write_text((root / "billing" / "main.py").read_text() + "\n# refunds next\n")
    git(root, "commit", "-qam", "refunds")
    return first, git(root, "rev-parse", "HEAD")


def test_read_only_hint_is_true_exactly_for_the_tools_that_write_nothing(tmp_path: Path) -> None:
    repo = tmp_path / "invoicing"
    repo.mkdir()
    first, _ = make_repo(repo)
    store = RecordingStore(InMemoryKnowledgeStore())
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(store))
    app.use_cases.index_repository()(IndexRequest(path=str(repo), repository_name="invoicing"))
    server = build_server(app, "full")
    arguments = {
        "list_repositories": {}, "list_blind_spots": {}, "list_services": {},
        "describe_service": {"service": "billing"}, "list_apis": {"service": "billing"},
        "describe_api": {"service": "billing", "method": "GET", "path": "/invoices/{id}"},
        "describe_persistence": {"service": "billing"}, "describe_messages": {"service": "billing"},
        "search": {"query": "invoice"}, "get_relationships": {"service": "billing"},
        "trace_flow": {"source": "billing", "target": "billing"}, "find_architecture_smells": {},
        "find_provenance": {"file": "billing/main.py", "line": 4},
        "find_change_surface": {"task": "refund an invoice"},
        "record_change_surface_feedback": {"run_id": 1, "service": "billing", "outcome": "confirmed"},
        "verify_change_surface": {"run_id": 1, "repository": "invoicing", "since_commit": first},
        "refresh": {},
    }

    async def go() -> tuple[dict[str, bool], dict[str, list[str]], dict[str, bool]]:
        wrote: dict[str, list[str]] = {}
        errors: dict[str, bool] = {}
        async with mcp.Client(server) as client:
            hints = {t.name: t.annotations.read_only_hint for t in (await client.list_tools()).tools}
            for name in hints:  # in tools/list order: find_change_surface (run 1) before its feedback
                before = len(store.writes)
                result = await client.call_tool(name, arguments[name])
                errors[name] = bool(result.is_error)
                wrote[name] = store.writes[before:]
        return hints, wrote, errors

    hints, wrote, errors = asyncio.run(go())
    assert set(hints) == set(arguments), "a new tool needs arguments here"
    assert not any(errors.values()), [n for n, e in errors.items() if e]
    assert {n for n, w in wrote.items() if w} == {"find_change_surface", "record_change_surface_feedback",
                                                   "verify_change_surface", "refresh"}
    for name, hint in hints.items():
        assert hint is (not wrote[name]), f"{name}: readOnlyHint={hint} but wrote {wrote[name]}"
