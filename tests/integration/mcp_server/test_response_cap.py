"""The 64 KB promise holds for the whole JSON-RPC message of every tool, structured content and the
text block both counted (issue 13 #13), on a system big enough to overflow every list."""

from __future__ import annotations

import json
from typing import Any

import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Direction,
    Evidence,
    Message,
    PersistenceEntity,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.summaries import describe_from_facts
from orbitkb.mcp.shaping import MAX_RESPONSE_BYTES

from .test_mcp_tools import call, make_server

REPO = "big"
WORDS = "payment refund ledger order stock shipment invoice customer card capture ".split()


def sid(name: str) -> str:
    return service_id(REPO, name)


def _text(i: int) -> str:
    return " ".join(WORDS[(i + k) % len(WORDS)] for k in range(40))


def big_store() -> InMemoryKnowledgeStore:
    names = [f"payment-service-number-{i:04d}" for i in range(3000)]
    facts = [ServiceFacts(Service(sid(n), n, REPO, n, "python", "fastapi", readme=_text(i)))
             for i, n in enumerate(names[1:], 1)]
    hub = names[0]
    ev = (Evidence(f"{hub}/app.py", 1, 2),)
    apis = tuple(Api(make_id("api", hub, i), sid(hub), "POST", f"/payments/{i}/refund/{'x' * 60}", f"refund_{i}",
                     f"{hub}/app.py", i, i + 1, doc=_text(i), evidence=ev) for i in range(1500))
    calls = tuple(ServiceCall(make_id("call", hub, i), sid(hub), CallKind.HTTP, names[1 + i % 2999],
                              TargetKind.INTERNAL, to_service_id=sid(names[1 + i % 2999]), reason=_text(i),
                              path=f"/x/{i}", evidence=ev) for i in range(1500))
    messages = tuple(Message(make_id("msg", hub, i), sid(hub), Direction.PUBLISHES, f"payment.refunded.{i}", "kafka",
                             description=_text(i), evidence=ev) for i in range(800))
    entities = tuple(PersistenceEntity(make_id("ent", hub, i), sid(hub), f"payment_table_{i}", "sql_table", "postgres",
                                       description=_text(i), evidence=ev) for i in range(800))
    facts.insert(0, ServiceFacts(Service(sid(hub), hub, REPO, hub, "python", "fastapi", readme=_text(0)),
                                 apis=apis, calls=calls, messages=messages, entities=entities))
    facts = [describe_from_facts(f) for f in facts]
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository(REPO, "/nowhere", "none", None, "2026-01-01T00:00:00+00:00"), facts,
                                   [], [], [], documents_for(facts))
    return store


HUB = "payment-service-number-0000"
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("list_repositories", {"limit": 500}),
    ("list_services", {"limit": 500}),
    ("describe_service", {"service": HUB, "limit": 500}),
    ("list_apis", {"service": HUB, "limit": 500}),
    ("describe_api", {"service": HUB, "method": "POST", "path": f"/payments/7/refund/{'x' * 60}"}),
    ("describe_persistence", {"service": HUB, "limit": 500}),
    ("describe_messages", {"service": HUB, "limit": 500}),
    ("search", {"query": "payment refund ledger", "limit": 100}),
    ("get_relationships", {"service": HUB}),
    ("trace_flow", {"source": HUB, "target": "payment-service-number-0002"}),
    ("find_architecture_smells", {"limit": 500}),
    ("find_change_surface", {"task": "refund a card payment and write a ledger entry"}),
    ("find_provenance", {"file": f"{HUB}/app.py", "line": 1}),
    ("list_blind_spots", {"limit": 500}),
]


@pytest.fixture(scope="module")
def server() -> Any:
    return make_server(big_store())


def message_bytes(result: Any) -> int:
    body = {"jsonrpc": "2.0", "id": 2**31, "result": result.model_dump(by_alias=True, exclude_none=True, mode="json")}
    return len(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode())


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[c[0] for c in CALLS])
def test_the_whole_message_stays_under_the_cap(server: Any, name: str, args: dict[str, Any]) -> None:
    res = call(server, name, args)
    assert not res.is_error, res.content[0].text
    assert message_bytes(res) <= MAX_RESPONSE_BYTES < 64 * 1024, name
    assert json.loads(res.content[0].text) == res.structured_content


def test_list_repositories_names_a_few_services_and_keeps_the_repository(server: Any) -> None:
    repo = call(server, "list_repositories", {}).structured_content["repositories"][0]
    assert repo["name"] == REPO and repo["service_count"] == 3000
    assert len(repo["services"]) == 50 and repo["services_truncated"] is True


def test_an_overflowing_answer_says_what_it_left_out(server: Any) -> None:
    out = call(server, "list_apis", {"service": HUB, "limit": 500}).structured_content
    assert 0 < len(out["apis"]) < 500 and out["omitted"]["items"]["apis"] == 500 - len(out["apis"])
