"""Entry point: builds the FastAPI app, mounts the API under its prefix and runs the Kafka consumer."""

import asyncio
from contextlib import asynccontextmanager

import uvicorn
from fastapi import FastAPI
from shopfront_common.logging import configure_logging

from app.api.router import api_router
from app.config import settings
from app.constants import API_PREFIX, SERVICE_NAME
from app.events.consumer import consume_stock_changes

configure_logging(SERVICE_NAME, settings.log_level)


@asynccontextmanager
async def lifespan(app: FastAPI):
    task = asyncio.create_task(consume_stock_changes())
    try:
        yield
    finally:
        task.cancel()


app = FastAPI(title="shopfront catalog", version="2.3.1", lifespan=lifespan)
app.include_router(api_router, prefix=API_PREFIX)


@app.get("/health", include_in_schema=False)
async def health() -> dict[str, str]:
    """Liveness probe used by docker-compose and Kubernetes."""
    return {"status": "ok"}


if __name__ == "__main__":
    uvicorn.run("app.main:app", host="0.0.0.0", port=8000, reload=True)
