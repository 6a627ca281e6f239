"""Names fixed at build time: URL prefix of the public API and cache key layout."""

API_PREFIX = "/api/v1/catalog"
SERVICE_NAME = "catalog"
PRODUCT_CACHE_KEY = "catalog:product:{product_id}"
SKU_INDEX_KEY = "catalog:sku:{sku}"
PRODUCT_CACHE_TTL_SECONDS = 300
