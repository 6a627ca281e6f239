"""A small multi-language system (facts + source) for the enrichment tests.

Four services in one repository, written the way real code bases are: FastAPI decorators with a
local helper, Express routes registered by name with handlers and arrow helpers defined
elsewhere in the file, a Spring controller whose methods call private helpers, and a Go handler
with a receiver. The facts are what a static pass would record for them.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import pytest

from orbitkb.domain.fakes import InMemoryKnowledgeStore, MemorySourceTree
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Component,
    Direction,
    EntityField,
    Evidence,
    Message,
    PersistenceEntity,
    Repository,
    Service,
    ServiceCall,
    ServiceFacts,
    ShapeField,
    TargetKind,
)

REPO = "shop"

ORDERS_PY = '''\
"""Orders HTTP API."""
import os
import httpx
from fastapi import APIRouter, Header, HTTPException

router = APIRouter(prefix="/orders")
PAYMENTS_URL = os.environ["PAYMENTS_URL"]


def _charge(amount, token):
    # Calls payments to charge the card.
    resp = httpx.post(f"{PAYMENTS_URL}/charge", json={"amount": amount, "token": token})
    resp.raise_for_status()
    return resp.json()


@router.post("")
def create_order(payload: dict, authorization: str = Header(None)):
    if not authorization or not authorization.startswith("Bearer "):
        raise HTTPException(401, "missing bearer token")
    charge = _charge(payload["amount"], payload["payment_token"])
    return {"order_id": charge["id"], "status": "confirmed"}


@router.get("/{order_id}")
def get_order(order_id: str):
    return {"order_id": order_id}
'''

PAYMENTS_JS = """\
const express = require('express');
const router = express.Router();
const gateway = require('./gateway');

const toCents = (amount) => Math.round(amount * 100);

async function chargeHandler(req, res) {
  const cents = toCents(req.body.amount);
  const result = await gateway.charge(cents, req.body.token);
  res.json({ id: result.id });
}

router.post('/charge', chargeHandler);
module.exports = router;
"""

INVENTORY_JAVA = """\
package shop.inventory;

@RestController
@RequestMapping("/stock")
public class StockController {

    @GetMapping("/{sku}")
    public StockLevel level(@PathVariable String sku) {
        return lookup(sku);
    }

    private StockLevel lookup(String sku) {
        StockLevel level = repository.findBySku(sku);
        return level;
    }
}
"""

SHIPPING_GO = """\
package main

func (h *Handler) Ship(w http.ResponseWriter, r *http.Request) {
\tlabel := buildLabel(r.URL.Query().Get("order"))
\tw.Write(label)
}

func buildLabel(order string) []byte {
\treturn []byte("label:" + order)
}
"""

FILES = {
    "orders/app.py": ORDERS_PY,
    "payments/routes.js": PAYMENTS_JS,
    "inventory/src/main/java/shop/inventory/StockController.java": INVENTORY_JAVA,
    "shipping/main.go": SHIPPING_GO,
}


def _svc(name: str, root: str, stack: str, framework: str) -> Service:
    return Service(service_id(REPO, name), name, REPO, root, stack, framework, readme=f"{name} readme.")


ORDERS = _svc("orders-service", "orders", "python", "fastapi")
PAYMENTS = _svc("payments-service", "payments", "node-ts", "express")
INVENTORY = attrs.evolve(_svc("inventory-service", "inventory", "jvm-spring", "spring"), aliases=("stock",))
SHIPPING = _svc("shipping", "shipping", "go", "net/http")


def _api(
    svc: Service, method: str, path: str, handler: str, file: str, start: int, end: int, comp: str | None
) -> Api:
    return Api(
        make_id("api", svc.id, method, path),
        svc.id,
        method,
        path,
        handler,
        file,
        start,
        end,
        component_id=comp,
        evidence=(Evidence(file, start, end),),
    )


ORDERS_MAIN = Component(
    make_id("comp", ORDERS.id, "orders/app.py"), ORDERS.id, "app", "orders/app.py", "module"
)
PAYMENTS_ROUTES = Component(
    make_id("comp", PAYMENTS.id, "routes"), PAYMENTS.id, "routes", "payments/routes.js", "module"
)
STOCK = Component(
    make_id("comp", INVENTORY.id, "StockController"),
    INVENTORY.id,
    "StockController",
    "inventory/src/main/java/shop/inventory/StockController.java",
    "class",
    3,
    17,
)

CREATE_ORDER = _api(ORDERS, "POST", "/orders", "create_order", "orders/app.py", 17, 22, ORDERS_MAIN.id)
GET_ORDER = _api(ORDERS, "GET", "/orders/{order_id}", "get_order", "orders/app.py", 25, 27, ORDERS_MAIN.id)
CHARGE = _api(PAYMENTS, "POST", "/charge", "chargeHandler", "payments/routes.js", 13, 13, PAYMENTS_ROUTES.id)
LEVEL = _api(INVENTORY, "GET", "/stock/{sku}", "StockController.level", STOCK.file_path, 7, 10, STOCK.id)
# A Go handler with no component: it goes to the overview as a loose endpoint.
SHIP = _api(SHIPPING, "POST", "/ship", "Handler.Ship", "shipping/main.go", 3, 6, None)

ORDERS_TO_PAYMENTS = ServiceCall(
    make_id("call", ORDERS.id, CREATE_ORDER.id, "payments-service"),
    ORDERS.id,
    CallKind.HTTP,
    "payments-service",
    TargetKind.INTERNAL,
    to_service_id=PAYMENTS.id,
    from_api_id=CREATE_ORDER.id,
    from_component_id=ORDERS_MAIN.id,
    method="POST",
    path="/charge",
    evidence=(Evidence("orders/app.py", 13, 13, note="env PAYMENTS_URL"),),
)
PAYMENTS_TO_STRIPE = ServiceCall(
    make_id("call", PAYMENTS.id, CHARGE.id, "api.stripe.com"),
    PAYMENTS.id,
    CallKind.HTTP,
    "api.stripe.com",
    TargetKind.EXTERNAL,
    from_api_id=CHARGE.id,
    evidence=(Evidence("payments/gateway.js", 4, 4),),
)
ORDERS_TABLE = PersistenceEntity(
    make_id("ent", ORDERS.id, "orders"),
    ORDERS.id,
    "orders",
    "sql_table",
    "unknown",
    "Order",
    (EntityField("id", "uuid", False, True), EntityField("status", "text")),
    evidence=(Evidence("orders/app.py", 1, 3),),
)
ORDER_CREATED = Message(
    make_id("msg", ORDERS.id, "order.created"),
    ORDERS.id,
    Direction.PUBLISHES,
    "order.created",
    "kafka",
    api_id=CREATE_ORDER.id,
)


def facts() -> list[ServiceFacts]:
    return [
        ServiceFacts(
            ORDERS,
            (ORDERS_MAIN,),
            (CREATE_ORDER, GET_ORDER),
            (ORDERS_TO_PAYMENTS,),
            (ORDERS_TABLE,),
            (ORDER_CREATED,),
        ),
        ServiceFacts(PAYMENTS, (PAYMENTS_ROUTES,), (CHARGE,), (PAYMENTS_TO_STRIPE,)),
        ServiceFacts(
            INVENTORY, (STOCK,), (attrs.evolve(LEVEL, request_shape=(ShapeField("sku", "string", True),)),)
        ),
        ServiceFacts(SHIPPING, (), (SHIP,)),
    ]


#: The stores now upsert calls and rewrite shapes, entity and message descriptions themselves.
#: Kept as a name only because test modules import it; new tests use InMemoryKnowledgeStore.
UpsertingStore = InMemoryKnowledgeStore


def load(store: InMemoryKnowledgeStore, services: list[ServiceFacts] | None = None) -> None:
    store.replace_repository_facts(Repository(REPO, "/src/shop"), services or facts(), [], [], [], [])


@pytest.fixture
def store() -> InMemoryKnowledgeStore:
    s = InMemoryKnowledgeStore()
    load(s)
    return s


@pytest.fixture
def tree() -> MemorySourceTree:
    return MemorySourceTree(FILES, root="/src/shop", commit="c0ffee")


@pytest.fixture
def make_tree() -> Callable[[dict[str, str]], MemorySourceTree]:
    def make(changes: dict[str, str]) -> MemorySourceTree:
        return MemorySourceTree({**FILES, **changes}, root="/src/shop", commit="c0ffee2")

    return make
