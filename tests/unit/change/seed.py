"""A small hand-built system in an InMemoryKnowledgeStore: checkout, payments, orders, inventory,
notification, catalog, ledger."""

from __future__ import annotations

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
    ResourceType,
    Service,
    ServiceCall,
    ServiceFacts,
    TargetKind,
)
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.summaries import describe_from_facts

REPO = "shop"


def sid(name: str) -> str:
    return service_id(REPO, name)


def api(svc: str, method: str, path: str, handler: str, doc: str | None = None) -> Api:
    return Api(make_id("api", svc, method, path), sid(svc), method, path, handler, f"{svc}/app.py", 10, 12, doc=doc)


def call(a: str, b: str | None, target: str | None = None, to_api: str | None = None,
         kind: TargetKind = TargetKind.INTERNAL) -> ServiceCall:
    return ServiceCall(make_id("call", a, b, target), sid(a), CallKind.HTTP, target or b or "?", kind,
                       ResourceType.SAAS if kind == TargetKind.EXTERNAL else ResourceType.NOT_APPLICABLE,
                       to_service_id=sid(b) if b else None, to_api_id=to_api,
                       evidence=(Evidence(f"{a}/clients.py", 5, 5),))


def msg(svc: str, d: Direction, ch: str) -> Message:
    return Message(make_id("msg", svc, d, ch), sid(svc), d, ch, "kafka", evidence=(Evidence(f"{svc}/events.py", 3, 3),))


def facts() -> list[ServiceFacts]:
    def svc(name: str, readme: str) -> Service:
        return Service(sid(name), name, REPO, name, "python", "fastapi", readme=readme)

    charge = api("payments", "POST", "/payments/charges", "create_charge", "Charge a customer's card.")
    out = [
        ServiceFacts(svc("checkout", "Checkout orchestrates the cart-to-order flow and the payment method choice."),
                     apis=(api("checkout", "POST", "/checkout", "place_order", "Place an order from the cart."),
                           api("checkout", "GET", "/checkout/payment-methods", "list_payment_methods")),
                     calls=(call("checkout", "payments", to_api=charge.id), call("checkout", "inventory"),
                            call("checkout", "orders"))),
        ServiceFacts(svc("payments", "Payments authorizes and captures card payments through Stripe."),
                     apis=(charge, api("payments", "POST", "/payments/refunds", "refund")),
                     calls=(call("payments", None, "Stripe API", kind=TargetKind.EXTERNAL),
                            call("payments", None, "fraud-service", kind=TargetKind.INTERNAL)),
                     messages=(msg("payments", Direction.PUBLISHES, "payment.authorized"),),
                     entities=(PersistenceEntity(make_id("ent", "payments", "payment"), sid("payments"), "payments",
                                                 "sql_table", "postgres"),)),
        ServiceFacts(svc("orders", "Orders keeps the order lifecycle."),
                     apis=(api("orders", "GET", "/orders/{id}", "get_order"),),
                     messages=(msg("orders", Direction.CONSUMES, "payment.authorized"),)),
        ServiceFacts(svc("inventory", "Inventory reserves stock for products."),
                     apis=(api("inventory", "POST", "/stock/reservations", "reserve_stock"),)),
        ServiceFacts(svc("notification", "Sends e-mails and SMS to customers."),
                     messages=(msg("notification", Direction.CONSUMES, "payment.authorized"),)),
        ServiceFacts(svc("catalog", "Product catalog: categories, product pages and search."),
                     apis=(api("catalog", "GET", "/products", "list_products"),)),
        ServiceFacts(svc("ledger", "Accounting ledger entries and reconciliation reports."),
                     apis=(api("ledger", "POST", "/entries", "add_entry"),)),
    ]
    return [describe_from_facts(f) for f in out]


def seeded_store() -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    f = facts()
    store.replace_repository_facts(Repository(REPO, "/nowhere", "none", None, "2026-01-01T00:00:00+00:00"), f, [], [],
                                   [], documents_for(f))
    return store


#: Services of the seeded system that no cut of the learned evidence mix may leave out of the surface
#: (primary or secondary): a caller of an API whose request the task changes (test_change_surface.py).
#: benchmarks/realhistory/fit.py checks them beside the example system's floors, so a refit cannot
#: trade them for real-history F1.
PINNED_IN_SURFACE = (("Make the currency field required in card charges requests", "checkout"),)
