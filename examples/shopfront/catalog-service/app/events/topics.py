"""Kafka topics the catalog reads. Owned by the inventory service."""

STOCK_CHANGED_TOPIC = "inventory.stock-changed"
CONSUMER_GROUP = "catalog"
