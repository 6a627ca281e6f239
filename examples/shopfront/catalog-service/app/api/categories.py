"""Category endpoints. The router has no prefix of its own: router.py mounts it at /categories."""

from fastapi import APIRouter, Depends
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.products import _to_out
from app.api.schemas import CategoryOut, ProductOut
from app.db.models import Category, Product
from app.db.session import get_session

router = APIRouter()


@router.get("/", response_model=list[CategoryOut])
async def list_categories(session: AsyncSession = Depends(get_session)) -> list[CategoryOut]:
    """List all categories in menu order."""
    rows = await session.scalars(select(Category).order_by(Category.position))
    return [CategoryOut(slug=c.slug, title=c.title) for c in rows]


@router.get("/{slug}/products", response_model=list[ProductOut])
async def list_category_products(slug: str, session: AsyncSession = Depends(get_session)) -> list[ProductOut]:
    """List the active products of one category."""
    rows = await session.scalars(
        select(Product).join(Product.category).where(Category.slug == slug, Product.active.is_(True))
    )
    return [_to_out(p) for p in rows]
