"""Product endpoints: browse, read (with live stock) and maintain the catalog."""

from fastapi import APIRouter, Depends, HTTPException, Response, status
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.schemas import ProductIn, ProductOut
from app.cache import cached_product, drop_product, store_product
from app.clients.inventory import inventory
from app.db.models import Category, Product
from app.db.session import get_session

router = APIRouter(prefix="/products", tags=["products"])


def _to_out(product: Product, in_stock: int | None = None) -> ProductOut:
    return ProductOut(
        id=product.id,
        sku=product.sku,
        name=product.name,
        description=product.description,
        price_cents=product.price_cents,
        currency=product.currency,
        category_slug=product.category.slug if product.category else None,
        in_stock=in_stock,
    )


@router.get("", response_model=list[ProductOut])
async def list_products(
    limit: int = 50, offset: int = 0, session: AsyncSession = Depends(get_session)
) -> list[ProductOut]:
    """List active products, cheapest first. Stock is not included (see GET /products/{id})."""
    rows = await session.scalars(
        select(Product).where(Product.active.is_(True)).order_by(Product.price_cents).limit(limit).offset(offset)
    )
    return [_to_out(p) for p in rows]


@router.get("/{product_id}", response_model=ProductOut)
async def get_product(product_id: int, session: AsyncSession = Depends(get_session)) -> ProductOut:
    """Return one product with its current stock level from inventory (cached for five minutes)."""
    hit = await cached_product(product_id)
    if hit is not None:
        return hit
    product = await session.get(Product, product_id)
    if product is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "product not found")
    stock = await inventory.stock_for(product.sku)
    out = _to_out(product, in_stock=stock)
    await store_product(out)
    return out


@router.post("", response_model=ProductOut, status_code=status.HTTP_201_CREATED)
async def create_product(body: ProductIn, session: AsyncSession = Depends(get_session)) -> ProductOut:
    """Add a product to the catalog. The SKU must be unique."""
    product = Product(**body.model_dump(exclude={"category_slug"}))
    if body.category_slug:
        product.category = await session.scalar(select(Category).where(Category.slug == body.category_slug))
    session.add(product)
    await session.commit()
    return _to_out(product)


@router.put("/{product_id}", response_model=ProductOut)
async def update_product(product_id: int, body: ProductIn, session: AsyncSession = Depends(get_session)) -> ProductOut:
    """Replace a product's name, description and price; drops its cache entry."""
    product = await session.get(Product, product_id)
    if product is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "product not found")
    for key, value in body.model_dump(exclude={"category_slug", "sku"}).items():
        setattr(product, key, value)
    await session.commit()
    await drop_product(product_id)
    return _to_out(product)


@router.delete("/{product_id}", status_code=status.HTTP_204_NO_CONTENT)
async def delete_product(product_id: int, session: AsyncSession = Depends(get_session)) -> Response:
    """Retire a product: it stays in the database for past orders but is no longer listed."""
    product = await session.get(Product, product_id)
    if product is not None:
        product.active = False
        await session.commit()
        await drop_product(product_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
