"""The MCP side of `status SERVICE` (issue 13): describe_service carries what the LLM spent
describing that service at index time, and leaves the field out while it never had any."""

from __future__ import annotations

from orbitkb.domain.runs import IndexRun, ServiceIndexCost
from tests.integration.mcp_server.test_mcp_tools import call, data, make_server
from tests.unit.change.seed import seeded_store, sid


def test_describe_service_sums_the_index_cost_of_that_service_only() -> None:
    store = seeded_store()
    first = store.add_index_run(IndexRun(None, "shop", "t0", backend="claude", llm_calls=9, cost_usd=1.0))
    second = store.add_index_run(IndexRun(None, "shop", "t1", backend="claude", llm_calls=2, cost_usd=0.5))
    store.add_index_costs([
        ServiceIndexCost(first, "shop", sid("payments"), "payments", 4, 4000, 400, 0.5),
        ServiceIndexCost(first, "shop", sid("orders"), "orders", 5, 5000, 500, 0.5),
        ServiceIndexCost(second, "shop", sid("payments"), "payments", 2, 2000, None, 0.25),
    ])
    server = make_server(store)
    payments = data(call(server, "describe_service", {"service": "payments"}))
    assert payments["index_cost"] == {"runs": 2, "llm_calls": 6, "input_tokens": 6000, "output_tokens": 400,
                                      "cost_usd": 0.75}
    assert data(call(server, "describe_service", {"service": "orders"}))["index_cost"]["llm_calls"] == 5
    assert "index_cost" not in data(call(server, "describe_service", {"service": "catalog"}))  # offline: unchanged
