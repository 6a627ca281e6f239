"""Request and response bodies of the catalog API."""

from pydantic import BaseModel, Field


class ProductIn(BaseModel):
    sku: str = Field(min_length=3, max_length=32)
    name: str
    description: str = ""
    price_cents: int = Field(gt=0)
    currency: str = "EUR"
    category_slug: str | None = None


class ProductOut(ProductIn):
    id: int
    in_stock: int | None = None


class CategoryOut(BaseModel):
    slug: str
    title: str
