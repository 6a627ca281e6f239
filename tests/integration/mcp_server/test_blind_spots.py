"""list_blind_spots: an agent sees, per repository, what the indexer could not understand."""

from __future__ import annotations

import asyncio
import json

import mcp

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    CallKind,
    Gap,
    PersistenceEntity,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.usecases.blind_spots import ListBlindSpots, reason_group
from orbitkb.mcp.shaping import MAX_RESPONSE_BYTES
from tests.integration.mcp_server.test_mcp_tools import call, data, make_server


def store_with_blind_spots(gaps: int = 3) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    for repo, svc in (("shop", "orders"), ("pay", "payments")):
        sid = service_id(repo, svc)
        calls = (
            ServiceCall(make_id("call", sid, "a"), sid, CallKind.HTTP, "{string}", TargetKind.UNKNOWN),
            ServiceCall(make_id("call", sid, "b"), sid, CallKind.HTTP, "ledger", TargetKind.INTERNAL),
            ServiceCall(make_id("call", sid, "c"), sid, CallKind.HTTP, "stripe", TargetKind.EXTERNAL),
        ) if repo == "shop" else ()
        entities = (PersistenceEntity(make_id("ent", sid, "x"), sid, "orders", "sql_table"),) if repo == "shop" else ()
        facts = ServiceFacts(Service(sid, svc, repo, svc, "python"), calls=calls, entities=entities)
        repo_gaps = [Gap(repo, f"src/broken{i}.py", "parse_error", f"unexpected indent (line {i + 3})")
                     for i in range(gaps)] if repo == "shop" else []
        repo_gaps += [Gap(repo, "legacy/app.rb", "unknown_stack", "ruby code: no analyzer for this stack")]
        store.replace_repository_facts(Repository(repo, f"/src/{repo}"), [facts], [], repo_gaps, [], [])
    return store


def test_counts_by_repository_kind_and_reason() -> None:
    spots = ListBlindSpots(store_with_blind_spots())()
    shop = next(r for r in spots.repositories if r.repository == "shop")
    assert shop.gaps == 4 and shop.unresolved_calls == 1 and shop.unmapped_internal_calls == 1
    assert shop.unknown_engine_entities == 1
    parse = shop.gaps_by_kind[0]
    assert (parse.kind, parse.count) == ("parse_error", 3)
    assert [(r.reason, r.count) for r in parse.reasons] == [("unexpected indent", 3)]
    pay = next(r for r in spots.repositories if r.repository == "pay")
    assert pay.gaps == 1 and pay.unresolved_calls == 0
    assert spots.total == 5 and not spots.truncated
    assert reason_group("cannot read: permission denied") == "cannot read"


def test_the_mcp_tool_is_in_the_full_set_only_and_bounded() -> None:
    server = make_server(store_with_blind_spots(gaps=3000))
    out = data(call(server, "list_blind_spots", {"repository": "shop", "kind": "parse_error", "limit": 2}))
    assert [r["repository"] for r in out["repositories"]] == ["shop"]
    assert out["repositories"][0]["gaps_by_kind"][0] == {
        "kind": "parse_error", "count": 3000, "reasons": [{"reason": "unexpected indent", "count": 3000}]}
    assert len(out["gaps"]) == 2 and out["total"] == 3000 and out["truncated"] is True
    big = call(server, "list_blind_spots", {"limit": 500})
    assert len(json.dumps(big.structured_content)) <= MAX_RESPONSE_BYTES
    unknown = call(server, "list_blind_spots", {"repository": "shp"})
    assert unknown.is_error and "shop" in unknown.content[0].text

    async def names(tools: str) -> set[str]:
        async with mcp.Client(make_server(store_with_blind_spots(), tools)) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert "list_blind_spots" in asyncio.run(names("full"))
    assert "list_blind_spots" not in asyncio.run(names("core"))


def test_an_empty_knowledge_base_answers_with_guidance() -> None:
    out = data(call(make_server(InMemoryKnowledgeStore()), "list_blind_spots", {}))
    assert out["empty"] is True
