"""Where each tool runs: the read tools answer on the server's event loop (no hand-off to a worker
thread per call); the tools that may wait on an LLM, git or a re-index run on a worker thread, so the
loop keeps reading the client meanwhile. The change surface waits on an LLM only when there is one:
offline it answers on the loop too."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import mcp
from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.bootstrap.factories import BackendChoice
from orbitkb.domain.fakes import FakeLLMBackend
from orbitkb.mcp.server import build_server, warm_model
from tests.unit.change.seed import seeded_store

READS = {
    "list_repositories": {}, "list_blind_spots": {}, "list_services": {},
    "describe_service": {"service": "payments"}, "list_apis": {"service": "payments"},
    "describe_api": {"service": "payments", "method": "POST", "path": "/payments/charges"},
    "describe_persistence": {"service": "payments"}, "describe_messages": {"service": "payments"},
    "search": {"query": "refund a card payment"}, "get_relationships": {"service": "payments"},
    "trace_flow": {"source": "checkout", "target": "payments"}, "find_architecture_smells": {},
    "find_provenance": {"file": "payments/app.py", "line": 1},
}
WORKERS = {"find_change_surface": {"task": "Refund a card payment"}}


class ThreadNotingStore:
    """The seeded in-memory store, noting which thread called each of its methods (a fake)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.calls: list[tuple[str, int]] = []

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr) or name.startswith("_"):
            return attr

        def noted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, threading.get_ident()))
            return attr(*args, **kwargs)

        return noted


def threads_per_tool(tool_set: str = "full", backend: Any = None) -> tuple[int, dict[str, set[int]], dict[str, bool]]:
    """``backend``: an LLM backend for the server (default: none, offline)."""
    store = ThreadNotingStore(seeded_store())
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(store))
    if backend is not None:
        app.adapters.backend.override(providers.Object(BackendChoice(backend, None)))
    server = build_server(app, tool_set)
    warm_model(app).join(timeout=30)  # the background load is not a tool's call
    used: dict[str, set[int]] = {}
    failed: dict[str, bool] = {}

    async def go() -> int:
        async with mcp.Client(server) as client:
            offered = {t.name for t in (await client.list_tools()).tools}
            for name, args in {**READS, **WORKERS}.items():
                if name not in offered:
                    continue
                before = len(store.calls)
                result = await client.call_tool(name, args)
                failed[name] = bool(result.is_error)
                used[name] = {ident for _, ident in store.calls[before:]}
        return threading.get_ident()

    loop_thread = asyncio.run(go())
    return loop_thread, used, failed


def test_read_tools_answer_on_the_event_loop_and_the_change_surface_on_a_worker() -> None:
    loop_thread, used, failed = threads_per_tool()
    assert not any(failed.values()), [n for n, f in failed.items() if f]
    reads = {n for n in READS if used.get(n)}
    assert {"describe_service", "get_relationships", "search", "list_repositories"} <= reads  # each reads the store
    for name in reads:
        assert used[name] == {loop_thread}, f"{name} ran on a worker thread"
    assert used["find_change_surface"] == {loop_thread}  # offline: no LLM to wait on


def test_with_an_llm_the_change_surface_runs_on_a_worker() -> None:
    loop_thread, used, failed = threads_per_tool(backend=FakeLLMBackend())
    assert not failed["find_change_surface"]
    assert used["find_change_surface"] and loop_thread not in used["find_change_surface"]
    assert used["describe_service"] == {loop_thread}


def test_the_core_tool_set_runs_the_same_way() -> None:
    loop_thread, used, _ = threads_per_tool("core")
    assert "list_repositories" not in used  # not a core tool
    assert used["describe_service"] == {loop_thread}
    assert used["find_change_surface"] == {loop_thread}
    loop_thread, used, _ = threads_per_tool("core", FakeLLMBackend())
    assert loop_thread not in used["find_change_surface"]
