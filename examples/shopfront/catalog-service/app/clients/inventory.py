"""gRPC client of the inventory service (proto: shopfront.inventory.v1.InventoryService)."""

import logging

import grpc
from inventory.v1 import inventory_pb2, inventory_pb2_grpc

from app.config import settings

log = logging.getLogger(__name__)


class InventoryClient:
    def __init__(self, address: str) -> None:
        self._channel = grpc.aio.insecure_channel(address)
        self._stub = inventory_pb2_grpc.InventoryServiceStub(self._channel)

    async def stock_for(self, sku: str) -> int | None:
        """Units available to sell (on hand minus reserved), or None when inventory is down."""
        try:
            level = await self._stub.GetStock(inventory_pb2.GetStockRequest(sku=sku), timeout=1.0)
        except grpc.aio.AioRpcError as exc:
            log.warning("inventory unavailable: %s", exc.code())
            return None
        return level.on_hand - level.reserved


inventory = InventoryClient(settings.inventory_grpc_addr)
