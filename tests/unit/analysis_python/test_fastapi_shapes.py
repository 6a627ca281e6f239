"""FastAPI request/response shapes from pydantic, SQLModel and dataclass models of the service."""

from pyana_support import link_sources

SCHEMAS = """
from typing import Optional, ClassVar
from pydantic import BaseModel, Field


class Base(BaseModel):
    id: int
    created_at: Optional[str] = None


class OrderIn(BaseModel):
    sku: str
    qty: int = Field(..., gt=0)
    note: str | None
    coupon: str = "none"
    tags: list[str] = Field(default_factory=list)
    _secret: str
    kind: ClassVar[str] = "order"


class OrderOut(Base):
    sku: str
    total: float = Field(0.0)
    id: str
"""

MODELS = """
from dataclasses import dataclass
from sqlmodel import SQLModel, Field as F


@dataclass(frozen=True)
class Refund:
    order_id: int
    reason: str = "n/a"


class Item(SQLModel, table=True):
    name: str
    price: float = F(default=0)
"""

ROUTES = """
from typing import List, Annotated
from fastapi import APIRouter, Depends
from svc.schemas import OrderIn, OrderOut
from svc import models as m

router = APIRouter(prefix="/orders")


def db():
    return None


@router.post("", response_model=OrderOut, status_code=201)
async def create(body: OrderIn, session=Depends(db)) -> dict:
    return {}


@router.get("", response_model=List[OrderOut])
def listing(limit: int = 10):
    return []


@router.get("/{oid}")
def one(oid: int, user: Annotated[OrderIn, Depends(db)]) -> OrderOut | None:
    return None


@router.post("/refunds")
def refund(r: m.Refund, item: m.Item) -> list[m.Item]:
    return []


@router.put("/{oid}")
def replace(oid: int, body: OrderIn) -> str:
    return ""
"""

MAIN = """
from fastapi import FastAPI
from svc.routes import router

app = FastAPI()
app.include_router(router, prefix="/api")
"""


def _shapes():
    facts = link_sources(
        {"svc/schemas.py": SCHEMAS, "svc/models.py": MODELS, "svc/routes.py": ROUTES, "svc/main.py": MAIN}
    )
    return {(a.method, a.path): (a.request_fields, a.response_fields) for a in facts.apis}


ORDER_IN = (
    ("sku", "str", True),
    ("qty", "int", True),
    ("note", "str | None", False),
    ("coupon", "str", False),
    ("tags", "list[str]", False),
)
ORDER_OUT = (
    ("id", "str", True),
    ("created_at", "Optional[str]", False),
    ("sku", "str", True),
    ("total", "float", False),
)


def test_body_model_and_response_model_with_inherited_fields():
    assert _shapes()[("POST", "/api/orders")] == (ORDER_IN, ORDER_OUT)


def test_list_response_model_marks_item_fields():
    assert _shapes()[("GET", "/api/orders")] == (
        (),
        tuple((n, t + " (list item)", r) for n, t, r in ORDER_OUT),
    )


def test_depends_annotated_model_is_not_a_body_and_return_annotation_is_the_response():
    assert _shapes()[("GET", "/api/orders/{oid}")] == ((), ORDER_OUT)


def test_two_body_models_are_embedded_and_dataclass_sqlmodel_resolve_through_module_alias():
    req, resp = _shapes()[("POST", "/api/orders/refunds")]
    assert req == (("r", "Refund", True), ("item", "Item", True))
    assert resp == (("name", "str (list item)", True), ("price", "float (list item)", False))


def test_non_model_return_gives_no_response_shape():
    assert _shapes()[("PUT", "/api/orders/{oid}")] == (ORDER_IN, ())


def test_single_dataclass_body():
    facts = link_sources(
        {
            "svc/models.py": MODELS,
            "svc/app.py": (
                "from fastapi import FastAPI\nfrom .models import Refund\napp = FastAPI()\n\n"
                "@app.post('/refund')\ndef refund(req: Refund):\n    return req\n"
            ),
        }
    )
    assert [(a.request_fields, a.response_fields) for a in facts.apis] == [
        ((("order_id", "int", True), ("reason", "str", False)), ())
    ]
