"""The MCP server loads the SystemModel once, in the background as it starts, and answers from it
until the snapshot changes."""

from __future__ import annotations

import attrs
from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.mcp.server import build_server, warm_model
from tests.unit.change.seed import seeded_store

from .test_mcp_tools import call, data


def test_the_server_warms_the_model_and_reuses_it_until_a_write():
    store = seeded_store()
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"))
    app.adapters.store.override(providers.Object(store))
    server = build_server(app)
    models = app.adapters.models()
    warm_model(app).join(timeout=30)  # the one build_server started shares the same reader
    assert models.loads == 1
    for _ in range(3):
        assert data(call(server, "describe_service", {"service": "payments"}))["name"] == "payments"
        data(call(server, "get_relationships", {"service": "payments"}))
        data(call(server, "find_change_surface", {"task": "Refund a card payment"}))
    assert models.loads == 1  # recording runs is history, not a new snapshot
    payments = next(s for s in store.list_services() if s.name == "payments")
    store.update_services([attrs.evolve(payments, short_desc="moves the money")])
    assert data(call(server, "describe_service", {"service": "payments"}))["short_desc"] == "moves the money"
    assert models.loads == 2


def test_a_one_shot_application_reads_the_store_and_keeps_nothing():
    app = build_application(Settings(db_path=":memory:", backend="offline", embedder="off"), keep_model=False)
    app.adapters.store.override(providers.Object(seeded_store()))
    assert app.adapters.models() is None and warm_model(app) is None
    assert app.use_cases.describe_service()("payments").name == "payments"
