"""The whole pipeline with the real language analyzers on examples/shopfront, against its ground truth.

Only what the pipeline decides is compared exactly (services, names, aliases, resources, targets,
channels' providers, engines); line choices belong to the language analyzers' own tests.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

ROOT = Path(__file__).resolve().parents[3] / "examples" / "shopfront"


class _Cache:
    def __init__(self) -> None:
        self.data: dict[str, str] = {}

    def get_many(self, keys):
        return {k: self.data[k] for k in keys if k in self.data}

    def put_many(self, items):
        self.data.update(items)


@pytest.fixture(scope="module")
def shop():
    if not (ROOT / "ground_truth.json").exists():
        pytest.skip("examples/shopfront is not in this checkout")
    files = {str(p.relative_to(ROOT)): p.read_bytes() for p in ROOT.rglob("*") if p.is_file()}
    analyzer = StaticCodeAnalyzer(workers=0)
    result = analyzer.analyze(
        MemorySourceTree(files, commit="abc123"), AnalysisRequest("shopfront"), _Cache()
    )
    truth = json.loads((ROOT / "ground_truth.json").read_text())
    return result, truth


def test_services_names_aliases_and_libraries(shop):
    result, truth = shop
    got = sorted(
        (s.service.name, s.service.root_dir, s.service.stack, s.service.framework, list(s.service.aliases))
        for s in result.services
    )
    want = sorted(
        (s["name"], s["root_dir"], s["stack"], s.get("framework"), s.get("aliases", []))
        for s in truth["services"]
    )
    assert [g[:3] + (g[4],) for g in got] == [w[:3] + (w[4],) for w in want]
    assert all(s.service.root_dir not in truth["libraries"] for s in result.services)


def test_resources(shop):
    result, truth = shop
    assert sorted((r.name, r.kind, r.engine) for r in result.resources) == sorted(
        (r["name"], r["kind"], r["engine"]) for r in truth["resources"]
    )


def test_every_call_edge_of_the_ground_truth_is_resolved(shop):
    result, truth = shop
    names = {s.service.id: s.service.name for s in result.services}
    got = {
        (s.service.name, names.get(c.to_service_id, c.target), c.call_kind.value)
        for s in result.services
        for c in s.calls
    }
    want = {(c["from"], c["to"], c["kind"]) for c in truth["calls"]}
    assert want - got == set()
    assert {g for g in got if g[1].startswith(("$", "{", "("))} == set()  # nothing left unresolved


def test_internal_http_calls_link_to_the_callee_api(shop):
    result, truth = shop
    names = {s.service.id: s.service.name for s in result.services}
    got = {
        (s.service.name, names.get(c.to_service_id), c.method, c.path)
        for s in result.services
        for c in s.calls
        if c.call_kind.value == "http" and c.to_service_id and c.to_api_id
    }
    want = {
        (c["from"], c["to"], c["method"], c["path"])
        for c in truth["calls"]
        if c["kind"] == "http" and not c["path"].endswith("**") and c.get("to_api", True)
    }
    internal = {w for w in want if w[1] in names.values()}
    assert internal - got == set()


def test_channels_and_entity_engines(shop):
    result, truth = shop
    got = {
        (s.service.name, m.direction.value, m.channel, m.provider)
        for s in result.services
        for m in s.messages
    }
    assert got == {(c["service"], c["direction"], c["channel"], c["provider"]) for c in truth["channels"]}
    got_e = {(s.service.name, e.name, e.engine) for s in result.services for e in s.entities}
    assert got_e == {(e["service"], e["name"], e["engine"]) for e in truth["entities"]}


def _by_site(facts, kind):
    """(service, file, line) of each call or message -> the handlers of the APIs reaching it."""
    out = {}
    for s in facts:
        handlers = {a.id: a.handler for a in s.apis}
        for c in s.calls if kind == "calls" else s.messages:
            ids = c.from_api_ids if kind == "calls" else c.api_ids
            out[(s.service.name, c.evidence[0].file.rsplit("/", 1)[-1], c.evidence[0].start_line)] = sorted(
                handlers[i] for i in ids
            )
    return out


def test_calls_and_publishes_belong_to_every_handler_reaching_them_through_services_and_clients(shop):
    """Controller -> service -> client chains, in Java, Kotlin and NestJS: a call made by a client
    class belongs to each handler whose code reaches it, however many calls deep."""
    result, _ = shop
    calls, messages = _by_site(result.services, "calls"), _by_site(result.services, "messages")
    # orders: OrderController.create -> OrderService.create -> CatalogClient / InventoryGrpcClient
    # (its stub is built in the constructor) / PaymentsClient
    assert calls[("orders", "CatalogClient.java", 24)] == ["OrderController.create"]
    assert calls[("orders", "InventoryGrpcClient.java", 22)] == ["OrderController.cancel", "OrderController.create"]
    assert calls[("orders", "PaymentsClient.java", 22)] == ["PaymentEventsListener.onPaymentCompleted"]
    assert messages[("orders", "OrderEventPublisher.java", 21)] == ["OrderController.create"]
    # payments (NestJS): controller -> PaymentsService.authorize -> OrdersClient / StripeGateway
    assert calls[("payments", "orders.client.ts", 20)] == ["PaymentsController.authorize"]
    assert calls[("payments", "stripe.gateway.ts", 35)] == ["PaymentsController.authorize"]
    # refund: an endpoint and an event handler; markCompleted: authorize and the Stripe webhook
    assert calls[("payments", "stripe.gateway.ts", 44)] == [
        "PaymentEventsController.onOrderCancelled", "PaymentsController.refund"
    ]
    assert messages[("payments", "payments.service.ts", 45)] == [
        "PaymentsController.authorize", "WebhooksController.handleStripe"
    ]
    # shipping (Kotlin): the listener -> service -> AccountsClient
    assert calls[("shipping", "AccountsClient.kt", 17)] == ["ShippingRequestListener.onShippingRequest"]
    # only code no handler reaches is left alone: gateway routes and the Go notifier's lookup
    unreached = sorted({s for (s, _f, _l), h in calls.items() if not h})
    assert unreached == ["api-gateway", "notifications"]
