"""The answers keep the reference's shape (spec parity, issue 13 item 6): trace steps say from/to,
relationships take inbound/outbound, the first smells run has no trend, unknown names are errors,
list_repositories paginates."""

from __future__ import annotations

from orbitkb.domain.model import Repository
from orbitkb.domain.search_docs import documents_for
from tests.unit.change.seed import facts, seeded_store

from .test_mcp_tools import call, data, make_server


def test_trace_steps_are_from_and_to() -> None:
    flow = data(call(make_server(seeded_store()), "trace_flow", {"source": "checkout", "target": "orders"}))
    assert flow["path"] and set(flow["path"][0]) >= {"from", "to", "type"}
    assert "source" not in flow["path"][0] and flow["path"][0]["from"] == "checkout"


def test_direction_takes_inbound_and_outbound() -> None:
    server = make_server(seeded_store())
    inbound = data(call(server, "get_relationships", {"service": "payments", "direction": "inbound"}))
    assert {r["direction"] for r in inbound["relationships"]} == {"inbound"}
    outbound = data(call(server, "get_relationships", {"service": "payments", "direction": "outbound"}))
    assert {r["direction"] for r in outbound["relationships"]} == {"outbound"}


def test_the_first_smells_run_has_no_trend_and_an_unknown_kind_is_an_error() -> None:
    server = make_server(seeded_store())
    first = data(call(server, "find_architecture_smells", {}))
    assert "trend" not in first and first["run_id"] is not None
    bad = call(server, "find_architecture_smells", {"kind": "spaghetti"})
    assert bad.is_error and "unknown kind" in bad.content[0].text and "cycle" in bad.content[0].text


def test_unknown_repository_and_hint_are_errors() -> None:
    server = make_server(seeded_store())
    res = call(server, "list_services", {"repository": "nope"})
    assert res.is_error and "not indexed" in res.content[0].text
    res = call(server, "find_change_surface", {"task": "Refund a payment", "hint_services": ["paymnts-x"]})
    assert res.is_error and "unknown service" in res.content[0].text


def test_list_repositories_paginates() -> None:
    store = seeded_store()
    for i in range(3):
        store.replace_repository_facts(Repository(f"extra{i}", f"/extra{i}"), [], [], [], [], documents_for(facts()[:0]))
    server = make_server(store)
    first = data(call(server, "list_repositories", {"limit": 2}))
    assert [r["name"] for r in first["repositories"]] == ["extra0", "extra1"]
    assert first["total"] == 4 and first["truncated"] is True
    rest = data(call(server, "list_repositories", {"limit": 2, "offset": 2}))
    assert [r["name"] for r in rest["repositories"]] == ["extra2", "shop"] and rest["truncated"] is False
    assert call(server, "list_repositories", {"limit": 0}).is_error
