"""Drops cached products whose stock changed, so the next read shows fresh availability."""

import json
import logging

from aiokafka import AIOKafkaConsumer

from app.cache import drop_by_sku
from app.config import settings
from app.events.topics import CONSUMER_GROUP, STOCK_CHANGED_TOPIC

log = logging.getLogger(__name__)


async def consume_stock_changes() -> None:
    """Run until cancelled: one cache eviction per stock-changed event."""
    consumer = AIOKafkaConsumer(STOCK_CHANGED_TOPIC, bootstrap_servers=settings.kafka_bootstrap, group_id=CONSUMER_GROUP)
    await consumer.start()
    try:
        async for record in consumer:
            event = json.loads(record.value)
            await drop_by_sku(event["sku"])
            log.info("stock changed for %s", event["sku"])
    finally:
        await consumer.stop()
