"""The serving process freezes what it keeps after each model load (gc.freeze), so the collections a
request's garbage triggers stop walking the model; a reload unfreezes first, so a previous model that
holds a reference cycle is still collected."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from orbitkb.bootstrap import Settings, build_application
from orbitkb.mcp.heap import ModelHeap
from orbitkb.mcp.server import warm_model


class CountingModels:
    """A model reader that only counts its loads, as CachedModelReader does (a fake)."""

    def __init__(self) -> None:
        self.loads = 0
        self.model: object | None = None

    def load_model(self) -> object:
        self.loads += 1
        self.model = Cyclic()
        return self.model


class Cyclic:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    gc.unfreeze()
    yield
    gc.unfreeze()  # the rest of the test process keeps its usual collector


def test_nothing_is_frozen_before_a_model_is_loaded() -> None:
    models = CountingModels()
    assert ModelHeap(models).settle() is False
    assert gc.get_freeze_count() == 0
    assert ModelHeap(object()).settle() is False  # a reader that does not count its loads: left alone


def test_a_load_is_frozen_once_and_a_later_call_costs_nothing() -> None:
    models = CountingModels()
    heap = ModelHeap(models)
    models.load_model()
    assert heap.settle() is True
    assert gc.get_freeze_count() > 0
    assert heap.settle() is False and heap.settle() is False  # no reload: nothing to do


def test_a_reload_unfreezes_so_the_previous_model_is_collected() -> None:
    models = CountingModels()
    heap = ModelHeap(models)
    models.load_model()
    heap.settle()
    first = weakref.ref(models.model)  # type: ignore[arg-type]
    models.load_model()  # the snapshot moved: a new model replaces the frozen one
    assert first() is not None  # its cycle keeps it alive until the collector runs
    assert heap.settle() is True
    assert first() is None
    assert gc.get_freeze_count() > 0


def test_the_warm_load_of_a_serving_process_freezes_the_model() -> None:
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    heap = ModelHeap(app.adapters.models())
    thread = warm_model(app, heap)
    assert thread is not None
    thread.join(timeout=30)
    assert gc.get_freeze_count() > 0
    assert heap.settle() is False  # settled already by the warm load


def test_the_hook_runs_after_every_call() -> None:
    import asyncio

    import mcp
    from mcp.server.mcpserver import MCPServer

    from orbitkb.mcp.tools import register

    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    calls: list[int] = []
    server = MCPServer("t")
    register(server, app, after_call=lambda: calls.append(1))

    async def go() -> tuple[bool, bool]:
        async with mcp.Client(server) as client:
            listed = await client.call_tool("list_services", {})  # an empty knowledge base: answered
            described = await client.call_tool("describe_service", {"service": "nowhere"})
            return listed.is_error, described.is_error

    assert asyncio.run(go()) == (False, False)
    assert len(calls) == 2


def test_the_hook_runs_after_a_refused_call_too() -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from orbitkb.domain.errors import OrbitkbError
    from orbitkb.mcp.tools import _guard

    calls: list[int] = []

    def refuses() -> dict[str, object]:
        raise OrbitkbError("no such service")

    with pytest.raises(ToolError, match="no such service"):
        _guard(refuses, after_call=lambda: calls.append(1))()
    assert calls == [1]
