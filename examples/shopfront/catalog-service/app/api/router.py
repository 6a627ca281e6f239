"""Aggregates the resource routers; main.py mounts this under API_PREFIX."""

from fastapi import APIRouter

from app.api import categories, products

api_router = APIRouter()
api_router.include_router(products.router)
api_router.include_router(categories.router, prefix="/categories", tags=["categories"])
