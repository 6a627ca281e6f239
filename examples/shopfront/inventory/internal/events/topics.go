// Package events connects the inventory service to Kafka.
package events

// Kafka topics read and written by inventory.
const (
	TopicOrdersCreated = "orders.created"
	TopicStockChanged  = "inventory.stock-changed"
	consumerGroup      = "inventory"
)
