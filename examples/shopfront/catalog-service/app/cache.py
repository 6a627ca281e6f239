"""Read-through cache of rendered products in Redis, with a SKU index for stock-change evictions."""

import redis.asyncio as redis

from app.api.schemas import ProductOut
from app.config import settings
from app.constants import PRODUCT_CACHE_KEY, PRODUCT_CACHE_TTL_SECONDS, SKU_INDEX_KEY

_redis = redis.from_url(settings.redis_url, decode_responses=True)


async def cached_product(product_id: int) -> ProductOut | None:
    raw = await _redis.get(PRODUCT_CACHE_KEY.format(product_id=product_id))
    return ProductOut.model_validate_json(raw) if raw else None


async def store_product(product: ProductOut) -> None:
    key = PRODUCT_CACHE_KEY.format(product_id=product.id)
    await _redis.set(key, product.model_dump_json(), ex=PRODUCT_CACHE_TTL_SECONDS)
    await _redis.set(SKU_INDEX_KEY.format(sku=product.sku), product.id, ex=PRODUCT_CACHE_TTL_SECONDS)


async def drop_product(product_id: int) -> None:
    await _redis.delete(PRODUCT_CACHE_KEY.format(product_id=product_id))


async def drop_by_sku(sku: str) -> None:
    product_id = await _redis.get(SKU_INDEX_KEY.format(sku=sku))
    if product_id is not None:
        await drop_product(int(product_id))
